//! The clap side of [`rigport::Format`]: the library stays free of clap, so the command line
//! wraps it to parse `--to` and list the values in `--help`.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use rigport::Format;

/// A [`Format`] as a command-line value (its key: `ms3d`, `ms3d-ascii`, `iqe`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatArg(pub Format);

/// Every format, in [`Format::ALL`]'s order (clap needs a `'static` slice).
const VARIANTS: [FormatArg; Format::ALL.len()] = {
    let mut variants = [FormatArg(Format::ALL[0]); Format::ALL.len()];
    let mut i = 1;
    while i < variants.len() {
        variants[i] = FormatArg(Format::ALL[i]);
        i += 1;
    }
    variants
};

impl ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.key()).help(self.0.description()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_parses_from_its_key() {
        assert_eq!(VARIANTS.map(|v| v.0), Format::ALL);
        for format in Format::ALL {
            assert_eq!(
                FormatArg::from_str(format.key(), false),
                Ok(FormatArg(format))
            );
        }
        assert!(FormatArg::from_str("dae", false).is_err());
    }
}
