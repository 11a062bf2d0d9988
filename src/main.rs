//! The `varsand` command line: parses the arguments and runs the subcommand
//! (`varsand::cli`, one file per subcommand).

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "varsand",
    version,
    about = "Write a board game's rules, then check, play and analyse it"
)]
struct Cli {
    #[command(subcommand)]
    command: varsand::cli::Command,
}

fn main() -> ExitCode {
    varsand::cli::run(Cli::parse().command)
}
