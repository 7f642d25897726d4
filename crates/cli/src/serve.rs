//! `wuzi serve`: the browser page and its JSON API, with the limits a public server needs, a
//! log of requests on stderr, and a graceful stop on SIGTERM or Ctrl-C.

use crate::output;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;
use tracing_subscriber::EnvFilter;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on, HOST:PORT (`127.0.0.1:8080`, `[::]:8080`, `localhost:8080`;
    /// port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = listen_address)]
    addr: std::net::SocketAddr,
    /// Searches running at once (default: the number of cores).
    #[arg(long, value_parser = crate::arg_check::at_least_one::<usize>)]
    max_searches: Option<usize>,
    /// The longest engine think time a request may ask for, in ms (at most an hour: a stop
    /// waits for the searches running).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    max_time_ms: u64,
    /// Threads per search (each search slot uses this many).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Requests that may wait for a search slot; more get 503 with Retry-After (0: none wait).
    #[arg(long, default_value_t = 64)]
    queue: usize,
    /// The longest a request waits in the queue, in ms, before a 503 with Retry-After.
    #[arg(long, default_value_t = 30_000)]
    queue_wait_ms: u64,
    /// Searches one client address may have running or waiting; more get 429 with Retry-After.
    #[arg(long, default_value_t = 8, value_parser = crate::arg_check::at_least_one::<u32>)]
    per_client: u32,
    /// Games one client address keeps (so that one address cannot fill the server's 1,000
    /// games): its next new game replaces the one it used least recently if that one has
    /// been left alone for 10 minutes, else it gets 429.
    #[arg(long, default_value_t = 100, value_parser = crate::arg_check::at_least_one::<u32>)]
    games_per_client: u32,
    /// Connections open at once; more are closed as they come. Keep it below the process's
    /// file descriptor limit (`ulimit -n`, systemd's LimitNOFILE: 1,024 unless raised).
    #[arg(long, default_value_t = 768, value_parser = crate::arg_check::at_least_one::<usize>)]
    max_connections: usize,
    /// Connections one client address may hold open at once; more from it are closed as they
    /// come (not applied with --trust-forwarded-for: cap clients at the proxy then).
    #[arg(long, default_value_t = 128, value_parser = crate::arg_check::at_least_one::<usize>)]
    connections_per_client: usize,
    /// Count clients by the last X-Forwarded-For hop (only behind a reverse proxy that sets it;
    /// otherwise every client behind the proxy shares the proxy's address).
    #[arg(long)]
    trust_forwarded_for: bool,
    /// Log level or filter for the request log on stderr, e.g. info, debug, warn,
    /// "wuzi_web=debug" (default: RUST_LOG, else info). Ids and moves only at debug.
    #[arg(long)]
    log: Option<String>,
}

pub fn run(args: &ServeArgs) -> ExitCode {
    if let Err(message) = start_logging(args.log.as_deref()) {
        return output::fail(message);
    }
    let mut config = wuzi_web::Config {
        max_time_ms: args.max_time_ms,
        threads: args.threads.into(),
        queue: args.queue,
        queue_wait: Duration::from_millis(args.queue_wait_ms),
        per_client: args.per_client as usize,
        games_per_client: args.games_per_client as usize,
        trust_forwarded_for: args.trust_forwarded_for,
        max_connections: args.max_connections,
        connections_per_client: args.connections_per_client,
        ..wuzi_web::Config::default()
    };
    if let Some(n) = args.max_searches {
        config.max_searches = n;
    }
    let served = wuzi_web::serve_until_signal(args.addr, config, |addr| {
        output::line(format!("wuzi serves on http://{addr}/"));
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => output::fail(format!("cannot serve on {}: {e}", args.addr)),
    }
}

/// `--addr`: HOST:PORT, the host a literal address or a name: its first IPv4 address if it
/// has one (`localhost` resolves to `::1` first on many systems, where a proxy configured for
/// `127.0.0.1` would find nothing).
fn listen_address(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let resolved: Vec<_> = text
        .to_socket_addrs()
        .map_err(|e| format!("not HOST:PORT ({e}); e.g. 127.0.0.1:8080, [::]:8080"))?
        .collect();
    resolved
        .iter()
        .find(|a| a.is_ipv4())
        .or(resolved.first())
        .copied()
        .ok_or_else(|| format!("{text} resolves to no address"))
}

/// A log filter, checked: a bare word must be a level (`infor` was read as a target's name
/// at trace level, and everything else went quiet).
fn log_filter(text: &str, named: &str) -> Result<EnvFilter, String> {
    const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];
    for directive in text.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let bare = !directive.contains(['=', '[', ':']);
        if bare && !LEVELS.contains(&directive.to_ascii_lowercase().as_str()) {
            return Err(format!(
                "{named}: \"{directive}\" is not a log level ({}); a filter is e.g. \
                 wuzi_web=debug,info",
                LEVELS.join(", ")
            ));
        }
    }
    EnvFilter::try_new(text).map_err(|e| format!("{named}: not a log level or filter ({e})"))
}

/// Logs to stderr at `level`, else as RUST_LOG says, else at info.
fn start_logging(level: Option<&str>) -> Result<(), String> {
    let filter = match level {
        Some(level) => log_filter(level, &format!("--log {level}"))?,
        // A RUST_LOG set but unreadable is an error, as a bad --log is, not a quiet "info".
        None => match std::env::var("RUST_LOG") {
            Ok(env) if !env.trim().is_empty() => log_filter(&env, &format!("RUST_LOG={env}"))?,
            _ => EnvFilter::new("info"),
        },
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .try_init()
        .map_err(|e| format!("cannot start the log: {e}"))
}
