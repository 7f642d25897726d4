//! One side of a match as the user writes it: `--a time=100,vct=off` (wuzi in-process) or
//! `--a "cmd=./pbrain-foo -x,time=1000,name=foo"` (any Gomocup engine).

use std::sync::Arc;
use std::time::Duration;
use wuzi_gomoku::eval::ShapeFactor;
use wuzi_gomoku::{EngineOptions, Weights, MAX_HASH_MIB, MAX_QUIET_VCF, MAX_THREADS};

/// Turn time of a wuzi side that gives no limit at all (what `wuzi match` always used).
const DEFAULT_TURN_MS: u64 = 100;
/// Turn time of an external engine that gives no time: it is always on a clock (a silent one
/// must not hold the match), and a second leaves room for start-up and I/O.
const DEFAULT_EXTERNAL_TURN_MS: u64 = 1000;

/// What plays: wuzi's engine in this process, or an external program.
#[derive(Clone, Debug)]
pub enum Kind {
    InProcess(EngineOptions),
    /// The program and its arguments.
    External(Vec<String>),
}

/// A side's engine and limits.
#[derive(Clone, Debug)]
pub struct SideSpec {
    pub name: String,
    pub kind: Kind,
    /// Time per move (`time=`), sent as `timeout_turn`.
    pub turn: Option<Duration>,
    /// Time for the whole game (`match=`), sent as `timeout_match` and `time_left`.
    pub game: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub threads: Option<u32>,
    /// Bytes the engine may use (`memory=`), sent as `max_memory`.
    pub memory: Option<u64>,
    /// How long after a `cmd=` engine's move the manager holds back its next command
    /// (`settle=`, ms), off both clocks: Rapfi 0.43 drops a command that arrives while it
    /// is still finishing its move, and then loses on time.
    pub settle: Option<Duration>,
    /// How long a `cmd=` engine may take to start and answer `START` (`start-wait=`, ms;
    /// 5000 when not given): one that loads a large network needs longer.
    pub start_wait: Option<Duration>,
}

impl SideSpec {
    /// True when the side plays on a clock for the whole game.
    pub fn on_match_clock(&self) -> bool {
        self.game.is_some()
    }

    /// The search threads the side runs while it thinks: wuzi's own `threads`, or what a
    /// `cmd=` engine is told (`threads=`, sent as `thread_num`; one when not told).
    pub fn search_threads(&self) -> usize {
        match &self.kind {
            Kind::InProcess(options) => options.threads,
            Kind::External(_) => self.threads.map_or(1, |n| n.max(1) as usize),
        }
    }
}

/// A warning when the games played at once may run more search threads than `cores`: the
/// engines then share cores. A side on the clock gets less than its time, and a side limited
/// by nodes or depth whose helper threads take turns with its main thread looks stronger
/// than it is, since a helper that runs ahead while the main thread waits duplicates less of
/// its work than one running beside it (measured: two threads against one at 10,000 nodes,
/// +85 +- 18 with two games at once on two cores, +28 +- 16 with one). Only one side of a
/// game thinks at a time.
pub fn oversubscription_warning(
    a: &SideSpec,
    b: &SideSpec,
    concurrency: usize,
    cores: usize,
) -> Option<String> {
    let threads = concurrency.max(1) * a.search_threads().max(b.search_threads());
    (threads > cores).then(|| {
        format!(
            "warning: up to {threads} search threads at once on {cores} cores: the engines \
             will share cores, so a timed side gets less than its time and helper threads \
             look stronger than they are; lower --concurrency or threads"
        )
    })
}

/// Splits `a,b,"c,d"` on commas outside quotes (the quotes stay, for [`split_command`]).
fn split_items(spec: &str) -> Result<Vec<String>, String> {
    let mut items = vec![String::new()];
    let mut quote: Option<char> = None;
    for c in spec.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ',') => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().expect("never empty").push(c);
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in \"{spec}\""));
    }
    Ok(items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect())
}

/// Splits a command line into words; single or double quotes keep spaces inside a word.
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in command \"{command}\""));
    }
    words.extend(word);
    if words.is_empty() {
        return Err("cmd= needs a program".into());
    }
    Ok(words)
}

fn number(key: &str, value: &str) -> Result<u64, String> {
    value
        .parse::<u64>()
        .map_err(|_| format!("{key}: \"{value}\" is not a whole number of 0 or more"))
}

/// A thread count, 1 to `MAX_THREADS`: 0 or 65 is a typo to report, not to round.
fn thread_count(value: &str) -> Result<usize, String> {
    match number("threads", value)? {
        n if (1..=MAX_THREADS as u64).contains(&n) => Ok(n as usize),
        n => Err(format!("threads: {n} is out of range (1 to {MAX_THREADS})")),
    }
}

/// Applies wuzi engine switches (`hash`, `width`, `threads`, `search`, `vcf`, `vct`,
/// `leaf-vcf`, `pvs`, `tt`, `killers`, `history`, `defence`, and the named search
/// parameters) from a `key=value,...` list.
pub fn apply_switches(options: &mut EngineOptions, spec: &str) -> Result<(), String> {
    for item in split_items(spec)? {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("setting \"{item}\" is not key=value"))?;
        apply_switch(options, key, value)?;
    }
    Ok(())
}

fn apply_switch(options: &mut EngineOptions, key: &str, value: &str) -> Result<(), String> {
    let switch = || match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(format!("{key}: \"{value}\" is not on or off")),
    };
    match key {
        "hash" => {
            let mib = number(key, value)?;
            if !(1..=MAX_HASH_MIB as u64).contains(&mib) {
                return Err(format!("hash: {mib} MiB is not in 1..={MAX_HASH_MIB}"));
            }
            options.table_bytes = (mib as usize) << 20;
        }
        "width" => options.max_candidates = number(key, value)? as usize,
        "vcf" => options.root_vcf = switch()?,
        "vct" => options.root_vct = switch()?,
        "vct-quiet" => {
            let n = number(key, value)?;
            if n > u64::from(MAX_QUIET_VCF) {
                return Err(format!("vct-quiet: {n} is not in 0..={MAX_QUIET_VCF}"));
            }
            options.root_vct_quiet = n as u32;
        }
        "leaf-vcf" => options.leaf_vcf = switch()?,
        "defence" => options.root_defence = switch()?,
        "pvs" => options.search.pvs = switch()?,
        "tt" => options.search.tt = switch()?,
        "killers" => options.search.killers = switch()?,
        "history" => options.search.history = switch()?,
        "eval" => options.eval = value.parse().map_err(|e| format!("eval: {e}"))?,
        "order" => options.order = value.parse().map_err(|e| format!("order: {e}"))?,
        "weights" => {
            let text = std::fs::read_to_string(value)
                .map_err(|e| format!("weights: cannot read {value}: {e}"))?;
            let weights = Weights::parse(&text).map_err(|e| format!("weights: {value}: {e}"))?;
            // Engines copy their options; every board of the run shares the tables.
            options.weights = Some(Arc::new(weights));
        }
        "threads" => options.threads = thread_count(value)?,
        "search" => {
            options.selective = match value {
                "selective" => true,
                "generic" => false,
                _ => return Err(format!("search: \"{value}\" is not selective or generic")),
            }
        }
        // A factor on the evaluation tables' values of a role and shape group
        // (`waiter:open-three=0.94`, `mover:three+open-two=1.05`), for tuning matches.
        _ if key.contains(':') => {
            options.set_shape_factor(format!("{key}={value}").parse::<ShapeFactor>()?)
        }
        // Named search constants (engine/params.rs), for tuning matches.
        _ => {
            if !options.params.set(key, value)? {
                return Err(format!("unknown setting \"{key}\""));
            }
        }
    }
    Ok(())
}

impl std::str::FromStr for SideSpec {
    type Err = String;

    fn from_str(spec: &str) -> Result<SideSpec, String> {
        let mut options = EngineOptions {
            table_bytes: 16 << 20,
            ..EngineOptions::default()
        };
        let mut side = SideSpec {
            name: String::new(),
            kind: Kind::InProcess(EngineOptions::default()),
            turn: None,
            game: None,
            nodes: None,
            depth: None,
            threads: None,
            memory: None,
            settle: None,
            start_wait: None,
        };
        let mut command = None;
        let mut engine_switches = false;
        let mut keys_seen: Vec<String> = Vec::new();
        for item in split_items(spec)? {
            let (key, value) = item
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("setting \"{item}\" is not key=value"))?;
            // `nodes=2000,nodes=3000` is a typo: which one was meant cannot be told. (A shape
            // group's factor may be given again: the last one holds, so that a knob can
            // override a base's.)
            if !key.contains(':') && keys_seen.iter().any(|k| k == key) {
                return Err(format!("{key} is given twice"));
            }
            keys_seen.push(key.to_string());
            let millis = || number(key, value).map(Duration::from_millis);
            // A limit of 0 is a typo, not a request for a move without a search.
            let limit = || match number(key, value)? {
                0 => Err(format!("{key}: must be 1 or more")),
                n => Ok(n),
            };
            match key {
                "cmd" => command = Some(split_command(value)?),
                "name" => side.name = value.trim_matches(['"', '\'']).to_string(),
                "time" => side.turn = Some(Duration::from_millis(limit()?)),
                "match" => side.game = Some(Duration::from_millis(limit()?)),
                "nodes" => side.nodes = Some(limit()?),
                "depth" => side.depth = Some(limit()?.min(u64::from(u32::MAX)) as u32),
                "threads" => side.threads = Some(thread_count(value)? as u32),
                "memory" => side.memory = Some(number(key, value)?),
                "settle" => side.settle = Some(millis()?),
                "start-wait" => side.start_wait = Some(Duration::from_millis(limit()?)),
                _ => {
                    apply_switch(&mut options, key, value)?;
                    engine_switches = true;
                }
            }
        }
        match command {
            Some(words) => {
                if engine_switches {
                    return Err("wuzi engine switches do not apply to a cmd= engine".into());
                }
                if side.name.is_empty() {
                    side.name = program_name(&words);
                }
                side.kind = Kind::External(words);
            }
            None => {
                if side.settle.is_some() || side.start_wait.is_some() {
                    return Err("settle= and start-wait= apply to a cmd= engine only".into());
                }
                if let Some(n) = side.threads {
                    options.threads = (n as usize).clamp(1, MAX_THREADS);
                }
                // The tables are nearly all of wuzi's memory; 0 is no limit, as the
                // protocol's `max_memory 0`: the default tables.
                match side.memory {
                    Some(0) | None => {}
                    Some(bytes) if bytes > (MAX_HASH_MIB as u64) << 20 => {
                        return Err(format!(
                            "memory: {bytes} bytes is more than wuzi's tables may have \
                             ({MAX_HASH_MIB} MiB)"
                        ))
                    }
                    Some(bytes) => options.table_bytes = bytes as usize,
                }
                if side.name.is_empty() {
                    side.name = format!("wuzi {spec}").trim_end().to_string();
                }
                side.kind = Kind::InProcess(options);
            }
        }
        let timed = side.turn.is_some() || side.game.is_some();
        let counted = side.nodes.is_some() || side.depth.is_some();
        // In-process searches may run on depth or nodes alone.
        let default_ms = match side.kind {
            Kind::External(_) if !timed => Some(DEFAULT_EXTERNAL_TURN_MS),
            Kind::InProcess(_) if !timed && !counted => Some(DEFAULT_TURN_MS),
            _ => None,
        };
        if let Some(ms) = default_ms {
            side.turn = Some(Duration::from_millis(ms));
        }
        Ok(side)
    }
}

/// Programs that run another named after them (`python3 engine.py`, `wine pbrain-x.exe`,
/// `java -jar x.jar`): the engine is named after what they run.
const RUNNERS: [&str; 14] = [
    "python", "python3", "python2", "pypy", "pypy3", "sh", "bash", "wine", "wine64", "node",
    "java", "mono", "env", "nice",
];

/// A `cmd=` engine's default name: its program's file name, or for a runner the file name of
/// what it runs: the first argument that is a file, or else that has a file's extension
/// (`x.exe` under wine may be a Windows path); options and their values (`-n 5`, `-X utf8`)
/// and settings (`VAR=1`) are neither.
fn program_name(words: &[String]) -> String {
    let file_name = |word: &str| {
        std::path::Path::new(word)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| word.to_string())
    };
    let program = file_name(&words[0]);
    if !RUNNERS.contains(&program.as_str()) {
        return program;
    }
    let candidates = || {
        words[1..]
            .iter()
            .filter(|w| !w.starts_with('-') && !w.contains('='))
    };
    let has_extension = |w: &&String| {
        std::path::Path::new(w.as_str())
            .extension()
            .is_some_and(|e| e.len() <= 4 && e.to_string_lossy().chars().any(char::is_alphabetic))
    };
    candidates()
        .find(|w| std::path::Path::new(w.as_str()).is_file())
        .or_else(|| candidates().find(has_extension))
        .map_or(program, |w| file_name(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_threads_than_cores_is_warned_of() {
        let spec = |s: &str| s.parse::<SideSpec>().unwrap();
        let (one, two) = (spec("nodes=10000"), spec("nodes=10000,threads=2"));
        let told = spec("cmd=./pbrain-x,time=100,threads=2");
        assert_eq!(one.search_threads(), 1);
        assert_eq!(two.search_threads(), 2);
        assert_eq!(told.search_threads(), 2);
        assert_eq!(spec("cmd=./pbrain-x,time=100").search_threads(), 1);
        assert_eq!(oversubscription_warning(&one, &one, 2, 2), None);
        assert_eq!(oversubscription_warning(&two, &one, 1, 2), None);
        let warned = oversubscription_warning(&two, &one, 2, 2).unwrap();
        assert!(
            warned.contains("up to 4 search threads at once on 2 cores"),
            "{warned}"
        );
        assert!(oversubscription_warning(&one, &told, 3, 4).is_some());
    }

    #[test]
    fn wuzi_settings_parse_and_reject() {
        let s: SideSpec = "time=50,vct=off,pvs=off,hash=8".parse().unwrap();
        assert_eq!(s.turn, Some(Duration::from_millis(50)));
        assert_eq!(s.name, "wuzi time=50,vct=off,pvs=off,hash=8");
        assert_eq!("".parse::<SideSpec>().unwrap().name, "wuzi");
        let Kind::InProcess(o) = &s.kind else {
            panic!("in-process")
        };
        assert!(!o.root_vct && !o.search.pvs);
        assert_eq!(o.table_bytes, 8 << 20);
        let d: SideSpec = "depth=3".parse().unwrap();
        assert_eq!((d.depth, d.turn), (Some(3), None));
        let threaded: SideSpec = "time=50,threads=2,search=generic".parse().unwrap();
        let Kind::InProcess(o) = &threaded.kind else {
            panic!("in-process")
        };
        assert_eq!((o.threads, o.selective), (2, false));
        let memory = |spec: &str| match spec.parse::<SideSpec>().unwrap().kind {
            Kind::InProcess(o) => o.table_bytes,
            Kind::External(_) => unreachable!(),
        };
        assert_eq!(memory("memory=1000000"), 1_000_000);
        assert_eq!(memory("memory=0"), memory("time=50"));
        // An engine's own memory is its business.
        assert!("cmd=x,memory=99999999999999".parse::<SideSpec>().is_ok());
        for bad in [
            "speed=9",
            "vcf=maybe",
            "time",
            "search=odd",
            "cmd=x,vct=off",
            "cmd=",
            "weights=/no/such/weights.txt",
            "waiter:five=2",
            "mover:two=0",
            "cmd=x,mover:two=0.9",
            "threads=0",
            "threads=65",
            "cmd=x,threads=0",
            "memory=99999999999999",
            "nodes=2000,nodes=3000",
            "cmd=x,time=50,time=60",
        ] {
            assert!(bad.parse::<SideSpec>().is_err(), "{bad}");
        }
        assert_eq!(
            "nodes=2000,vct=off,vct=on".parse::<SideSpec>().unwrap_err(),
            "vct is given twice"
        );
    }

    #[test]
    fn shape_factors_are_kept_one_per_group() {
        let s: SideSpec = "nodes=100,waiter:open-three=0.9,mover:four=1.1,\
                           waiter:open-three+two=1.2,waiter:open-three=0.8"
            .parse()
            .unwrap();
        let Kind::InProcess(o) = &s.kind else {
            panic!("in-process")
        };
        let kept: Vec<String> = o.shape_factors.iter().map(|f| f.to_string()).collect();
        assert_eq!(
            kept,
            [
                "mover:four=1.1",
                "waiter:open-three+two=1.2",
                "waiter:open-three=0.8"
            ]
        );
    }

    #[test]
    fn a_weights_file_replaces_the_embedded_tables() {
        let path = std::env::temp_dir().join(format!("wuzi-side-weights-{}", std::process::id()));
        std::fs::write(&path, "wuzi-weights 3\nrule renju\ntempo 3 4\n").unwrap();
        let spec: SideSpec = format!("nodes=100,weights={}", path.display())
            .parse()
            .unwrap();
        let Kind::InProcess(o) = &spec.kind else {
            panic!("in-process")
        };
        assert_eq!(
            o.weights.as_ref().map(|w| (w.rule, w.tempo)),
            Some((wuzi_gomoku::Rule::Renju, [3, 4]))
        );
        std::fs::write(&path, "not weights").unwrap();
        let err = format!("weights={}", path.display())
            .parse::<SideSpec>()
            .unwrap_err();
        assert!(err.starts_with("weights: "), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn external_engines_parse() {
        let s: SideSpec = "cmd='./pbrain x' -v \"a b\",time=200,match=9000,memory=1000,name=x"
            .parse()
            .unwrap();
        let Kind::External(words) = &s.kind else {
            panic!("external")
        };
        assert_eq!(words, &["./pbrain x", "-v", "a b"]);
        assert_eq!(s.name, "x");
        assert_eq!(s.game, Some(Duration::from_millis(9000)));
        assert!(s.on_match_clock());
        assert_eq!(s.settle, None);
        let plain: SideSpec = "cmd=/opt/pbrain-rapfi,nodes=1000,settle=20,start-wait=30000"
            .parse()
            .unwrap();
        assert_eq!(plain.settle, Some(Duration::from_millis(20)));
        assert_eq!(plain.start_wait, Some(Duration::from_millis(30_000)));
        for in_process in ["time=100,settle=20", "time=100,start-wait=9000"] {
            let err = in_process.parse::<SideSpec>().unwrap_err();
            assert_eq!(err, "settle= and start-wait= apply to a cmd= engine only");
        }
        assert!("cmd=x,start-wait=0".parse::<SideSpec>().is_err());
        assert_eq!(plain.name, "pbrain-rapfi");
        let name = |spec: &str| spec.parse::<SideSpec>().unwrap().name;
        assert_eq!(name("cmd=python3 /opt/my-engine.py -v"), "my-engine.py");
        assert_eq!(name("cmd=wine C:/engines/pbrain-x.exe"), "pbrain-x.exe");
        assert_eq!(name("cmd=java -jar ./engine.jar"), "engine.jar");
        assert_eq!(name("cmd=env THREADS=2 ./pbrain-y.sh"), "pbrain-y.sh");
        assert_eq!(name("cmd=nice -n 5 python3 eng.py"), "eng.py");
        assert_eq!(name("cmd=python3 -X utf8 eng.py"), "eng.py");
        // A file that is there is what runs, whatever its name.
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert_eq!(name(&format!("cmd=sh -e {manifest}")), "Cargo.toml");
        assert_eq!(name("cmd=python3"), "python3");
        assert_eq!(
            plain.turn,
            Some(Duration::from_millis(DEFAULT_EXTERNAL_TURN_MS))
        );
    }
}
