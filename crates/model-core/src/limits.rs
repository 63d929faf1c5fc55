//! Read options and memory limits shared by every reader, and the one "too many" error
//! every writer gives for a model past its format's limits.
//!
//! A count in a file must never make a reader allocate more than the input can justify.
//! Readers check every count against the bytes left (a vertex needs at least its record
//! size) *and* against a [`Budget`] drawn from [`Limits`], like image-png's `Limits`.
//!
//! A model with more of something than a format can hold (65535 vertices for MilkShape) is
//! refused with [`TooMany`], whose message names the format, the count and the limit.

/// Resource limits for one read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes the decoded structures may occupy. Default: 1 GiB.
    pub max_alloc_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_alloc_bytes: 1 << 30,
        }
    }
}

impl Limits {
    /// No limit beyond what the input itself justifies.
    pub const fn unlimited() -> Self {
        Self {
            max_alloc_bytes: u64::MAX,
        }
    }

    /// A fresh budget for one read.
    pub fn budget(&self) -> Budget {
        Budget {
            remaining: self.max_alloc_bytes,
        }
    }
}

/// Options every reader takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Turn warnings about damaged or unexpected input into errors.
    pub strict: bool,
    /// Memory limits.
    pub limits: Limits,
    /// Also read the animation files beside the main file that fit it, found among the
    /// companions by the format's own rule (MD5: every `.md5anim` whose joints are the
    /// mesh's). Off by default: only the animations asked for by name are attached.
    pub animations_beside: bool,
    /// Told which input bytes the reader has finished with (see
    /// [`Consumed`](crate::Consumed)); by default nobody listens.
    pub consumed: crate::Consumed,
}

impl ReadOptions {
    /// Strict reading with default limits.
    pub fn strict() -> Self {
        Self {
            strict: true,
            ..Self::default()
        }
    }
}

/// A reservation would exceed the memory limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what}: {count} items of {item_bytes} bytes exceed the memory limit ({remaining} bytes left)"
)]
pub struct LimitError {
    /// What was being allocated.
    pub what: &'static str,
    /// How many items were requested.
    pub count: u64,
    /// Size of one item in memory.
    pub item_bytes: u64,
    /// Budget left at the time.
    pub remaining: u64,
}

/// The allocation budget of one read; each reservation draws it down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    remaining: u64,
}

impl Budget {
    /// Draws `count × item_bytes` from the budget, or fails without changing it.
    pub fn reserve(
        &mut self,
        what: &'static str,
        count: u64,
        item_bytes: u64,
    ) -> Result<(), LimitError> {
        let bytes = count.saturating_mul(item_bytes);
        if bytes > self.remaining {
            return Err(LimitError {
                what,
                count,
                item_bytes,
                remaining: self.remaining,
            });
        }
        self.remaining -= bytes;
        Ok(())
    }

    /// Bytes still available.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }
}

/// A model holds more of something than the target format can: the error every writer
/// returns (inside its own error type) for a count past one of its format's limits.
///
/// ```
/// use rigport_model_core::TooMany;
///
/// assert!(TooMany::check("MilkShape 3D", "joints", 128, 128).is_ok());
/// let error = TooMany::check("MilkShape 3D", "joints", 129, 128).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "cannot write MilkShape 3D: 129 joints exceed the format's limit of 128"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {format}: {count} {what} exceed the format's limit of {max}")]
pub struct TooMany {
    /// The format, as a person names it ("MilkShape 3D").
    pub format: &'static str,
    /// What there are too many of ("vertices").
    pub what: &'static str,
    /// How many the model has.
    pub count: usize,
    /// The format's limit.
    pub max: usize,
}

impl TooMany {
    /// `Ok` when `count` is within `max`, else the error naming all four.
    pub fn check(
        format: &'static str,
        what: &'static str,
        count: usize,
        max: usize,
    ) -> Result<(), TooMany> {
        if count > max {
            return Err(TooMany {
                format,
                what,
                count,
                max,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_refuses_overdraw_and_keeps_balance() {
        let mut budget = Limits {
            max_alloc_bytes: 100,
        }
        .budget();
        budget.reserve("a", 10, 5).unwrap();
        assert_eq!(budget.remaining(), 50);
        let err = budget.reserve("b", 11, 5).unwrap_err();
        assert_eq!(err.remaining, 50);
        assert_eq!(budget.remaining(), 50);
        assert!(budget.reserve("c", u64::MAX, u64::MAX).is_err());
    }
}
