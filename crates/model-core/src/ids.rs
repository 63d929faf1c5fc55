//! Typed indices: a `JointId` can never be confused with a `MaterialId`.

use std::fmt;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as a `usize`, for indexing the owning `Vec`.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of the element at `index`, or `None` if it does not fit in 32 bits.
            #[inline]
            pub fn from_index(index: usize) -> Option<Self> {
                u32::try_from(index).ok().map(Self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

typed_id!(
    /// Index of a joint in [`Skeleton::joints`](crate::Skeleton::joints).
    JointId
);
typed_id!(
    /// Index of a material in [`Model::materials`](crate::Model::materials).
    MaterialId
);
typed_id!(
    /// Index of a mesh in [`Model::meshes`](crate::Model::meshes).
    MeshId
);
