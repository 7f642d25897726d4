//! `pbrain-wuzi`: the wuzi engine for Gomocup match managers (Piskvork, c-gomoku-cli,
//! GomocupJudge) and GUIs (Yixin-Board). Reads commands on stdin, replies on stdout. It
//! needs no files of its own, so it runs from any working directory.

use std::process::ExitCode;

const USAGE: &str = "\
pbrain-wuzi: the wuzi Gomoku engine for Gomocup match managers and GUIs.

Usage: pbrain-wuzi
It takes no arguments: it reads the Gomocup protocol's commands on stdin (START 15, INFO ...,
BEGIN, TURN 7,7, BOARD ... DONE, END) and answers on stdout. `wuzi gomocup` is the same.";

fn main() -> ExitCode {
    // A manager starts it with no arguments; a person or a package's smoke test may ask
    // what it is, and should not be left waiting on stdin.
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("--version" | "-V") => {
            println!("pbrain-wuzi {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some("--help" | "-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!("pbrain-wuzi: unexpected argument '{other}'\n\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    wuzi_gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
    ExitCode::SUCCESS
}
