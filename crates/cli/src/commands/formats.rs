//! `rigport formats`: the registry's formats, for people or (`--json`) for programs.

use super::Status;
use crate::args::FormatsArgs;
use rigport::Format;

/// Prints the table.
pub fn run(args: &FormatsArgs) -> Status {
    if args.json {
        print!("{}", rigport::info::formats_json());
        return Status::Success;
    }
    for format in Format::ALL.into_iter().filter(|f| f.is_enabled()) {
        let can = match (format.can_read(), format.can_write()) {
            (true, true) => "read, write",
            (true, false) => "read",
            (false, true) => "write",
            (false, false) => "-",
        };
        println!("{:<11} {:<12} {}", format.key(), can, format.description());
    }
    Status::Success
}
