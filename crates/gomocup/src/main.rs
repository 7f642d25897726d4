//! `pbrain-wuzi`: the wuzi engine for Gomocup match managers (Piskvork, c-gomoku-cli,
//! GomocupJudge) and GUIs (Yixin-Board). Reads commands on stdin, replies on stdout. It
//! needs no files of its own, so it runs from any working directory.

fn main() {
    wuzi_gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}
