//! Work in progress: this crate's reader and writer land with their issue.
#![forbid(unsafe_code)]
