//! The synthetic scene every bench input is written from: grid meshes skinned to a
//! binary-tree skeleton, with an animation that bends every joint on every frame.
//!
//! All values come from integer hashing and fixed formulas (no `sin`), so the bytes are
//! the same on every machine.

/// The size of one synthetic scene.
#[derive(Clone, Copy, Debug)]
pub struct Rig {
    /// Number of grid meshes.
    pub meshes: u32,
    /// Quads across each grid.
    pub cols: u32,
    /// Quads down each grid.
    pub rows: u32,
    /// Joints (a binary tree: joint `j` has parent `(j - 1) / 2`); at least 4.
    pub joints: u32,
    /// Animation frames (every joint has a key on every frame).
    pub frames: u32,
}

/// A value in `[-1, 1)` from an integer, by SplitMix-style hashing: deterministic noise.
pub fn noise(seed: u64) -> f32 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 40) as f32 / (1u64 << 23) as f32) - 1.0
}

/// Unit quaternion `[x, y, z, w]` of MilkShape Euler angles (`q = qz·qy·qx`).
pub fn euler_to_quat([x, y, z]: [f32; 3]) -> [f32; 4] {
    let (sx, cx) = (x * 0.5).sin_cos();
    let (sy, cy) = (y * 0.5).sin_cos();
    let (sz, cz) = (z * 0.5).sin_cos();
    [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ]
}

impl Rig {
    /// Grid vertices per mesh.
    pub fn vertices_per_mesh(&self) -> u32 {
        (self.cols + 1) * (self.rows + 1)
    }

    /// Triangles per mesh (two per quad).
    pub fn triangles_per_mesh(&self) -> u32 {
        2 * self.cols * self.rows
    }

    /// Position of grid vertex `(i, j)` of `mesh`: meshes side by side along X, a bumpy
    /// sheet in the XY plane.
    pub fn position(&self, mesh: u32, i: u32, j: u32) -> [f32; 3] {
        let seed = (u64::from(mesh) << 40) | (u64::from(i) << 20) | u64::from(j);
        [
            mesh as f32 * 12.0 + i as f32 * 10.0 / self.cols as f32,
            j as f32 * 10.0 / self.rows as f32,
            noise(seed) * 0.25,
        ]
    }

    /// Texture coordinate of grid vertex `(i, j)`.
    pub fn uv(&self, i: u32, j: u32) -> [f32; 2] {
        [i as f32 / self.cols as f32, j as f32 / self.rows as f32]
    }

    /// A unit normal near +Z for grid vertex `(i, j)` of `mesh`.
    pub fn normal(&self, mesh: u32, i: u32, j: u32) -> [f32; 3] {
        let seed = ((u64::from(mesh) << 40) | (u64::from(i) << 20) | u64::from(j)) ^ 0x5555;
        let (x, y) = (noise(seed) * 0.2, noise(seed + 1) * 0.2);
        let len = (x * x + y * y + 1.0).sqrt();
        [x / len, y / len, 1.0 / len]
    }

    /// Four distinct joints for grid vertex `(i, j)` of `mesh`, with weights 0.4, 0.3,
    /// 0.2 and 0.1: neighbouring columns share joints, like a smooth-skinned sheet.
    pub fn influences(&self, mesh: u32, i: u32, j: u32) -> [(u32, f32); 4] {
        let first = (mesh * 31 + i * 8 / (self.cols + 1) * 4 + j % 4) % self.joints;
        let weights = [0.4, 0.3, 0.2, 0.1];
        std::array::from_fn(|k| ((first + k as u32) % self.joints, weights[k]))
    }

    /// Corners of the two triangles of quad `(i, j)`, as grid indices `i + j·(cols + 1)`,
    /// counter-clockwise seen from +Z.
    pub fn quad_triangles(&self, i: u32, j: u32) -> [[u32; 3]; 2] {
        let stride = self.cols + 1;
        let a = i + j * stride;
        let (b, c, d) = (a + 1, a + 1 + stride, a + stride);
        [[a, b, c], [a, c, d]]
    }

    /// Parent of joint `j` (a binary tree rooted at joint 0).
    pub fn parent(&self, joint: u32) -> Option<u32> {
        joint.checked_sub(1).map(|j| j / 2)
    }

    /// Bind translation (relative to the parent) and Euler rotation of a joint.
    pub fn bind(&self, joint: u32) -> ([f32; 3], [f32; 3]) {
        let seed = u64::from(joint) << 32;
        let translation = if joint == 0 {
            [0.0; 3]
        } else {
            [
                noise(seed),
                1.0 + noise(seed + 1) * 0.5,
                noise(seed + 2) * 0.1,
            ]
        };
        let rotation = [
            noise(seed + 3) * 0.3,
            noise(seed + 4) * 0.3,
            noise(seed + 5) * 0.3,
        ];
        (translation, rotation)
    }

    /// The key of a joint on a frame, relative to its bind pose: a small translation and a
    /// bend that grows and shrinks over a 64-frame cycle.
    pub fn key(&self, joint: u32, frame: u32) -> ([f32; 3], [f32; 3]) {
        let phase = ((frame + joint * 5) % 64) as f32 / 32.0 - 1.0; // -1 .. 1
        let bend = 0.5 * (1.0 - phase * phase);
        let seed = (u64::from(joint) << 32) | u64::from(frame);
        (
            [noise(seed) * 0.01, bend * 0.1, 0.0],
            [bend * 0.3, noise(seed + 7) * 0.05, bend * -0.2],
        )
    }
}
