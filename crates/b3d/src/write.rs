//! Writing: each chunk's body, then its length patched into its header.

use crate::file::{
    Anim, Bone, Brus, File, Keys, Mesh, MeshChunk, Node, NodeChunk, RawChunk, Tag, Texs, TopChunk,
    Tris, Vrts,
};

pub(crate) fn to_bytes(file: &File) -> Vec<u8> {
    let mut out = Vec::with_capacity(estimate(file));
    chunk(&mut out, *b"BB3D", |out| {
        i32s(out, &[file.version]);
        for c in &file.chunks {
            match c {
                TopChunk::Texs(t) => texs(out, t),
                TopChunk::Brus(b) => brus(out, b),
                TopChunk::Node(n) => node(out, n),
                TopChunk::Raw(r) => raw(out, r),
            }
        }
    });
    out.extend_from_slice(&file.trailing);
    out
}

/// Bytes the vertex and key arrays will take, so the output grows once.
fn estimate(file: &File) -> usize {
    file.nodes()
        .iter()
        .map(|(_, n)| {
            let keys: usize = n
                .keys()
                .map(|k| k.keys.len() * Keys::key_size(k.flags))
                .sum();
            let mesh: usize = n.mesh().map_or(0, |m| {
                m.vrts().map_or(0, |v| v.data.len() * 4)
                    + m.tris().map(|t| t.triangles.len() * 12).sum::<usize>()
            });
            keys + mesh + 64
        })
        .sum::<usize>()
        + 1024
}

fn chunk(out: &mut Vec<u8>, tag: Tag, body: impl FnOnce(&mut Vec<u8>)) {
    let at = out.len();
    out.extend_from_slice(&tag);
    out.extend_from_slice(&[0; 4]);
    body(out);
    let length = i32::try_from(out.len() - at - 8).unwrap_or(i32::MAX);
    out[at + 4..at + 8].copy_from_slice(&length.to_le_bytes());
}

fn i32s(out: &mut Vec<u8>, values: &[i32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn string(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(s);
    out.push(0);
}

fn raw(out: &mut Vec<u8>, r: &RawChunk) {
    chunk(out, r.tag, |out| out.extend_from_slice(&r.body));
}

fn texs(out: &mut Vec<u8>, t: &Texs) {
    chunk(out, *b"TEXS", |out| {
        for t in &t.textures {
            string(out, &t.file);
            i32s(out, &[t.flags, t.blend]);
            f32s(out, &t.position);
            f32s(out, &t.scale);
            f32s(out, &[t.rotation]);
        }
        out.extend_from_slice(&t.extra);
    });
}

fn brus(out: &mut Vec<u8>, b: &Brus) {
    chunk(out, *b"BRUS", |out| {
        i32s(out, &[b.n_texs]);
        for b in &b.brushes {
            string(out, &b.name);
            f32s(out, &b.color);
            f32s(out, &[b.shininess]);
            i32s(out, &[b.blend, b.fx]);
            i32s(out, &b.textures);
        }
        out.extend_from_slice(&b.extra);
    });
}

fn node(out: &mut Vec<u8>, n: &Node) {
    chunk(out, *b"NODE", |out| {
        string(out, &n.name);
        f32s(out, &n.position);
        f32s(out, &n.scale);
        f32s(out, &n.rotation);
        for c in &n.children {
            match c {
                NodeChunk::Mesh(m) => mesh(out, m),
                NodeChunk::Bone(b) => bone(out, b),
                NodeChunk::Keys(k) => keys(out, k),
                NodeChunk::Anim(a) => anim(out, a),
                NodeChunk::Node(n) => node(out, n),
                NodeChunk::Raw(r) => raw(out, r),
            }
        }
    });
}

fn mesh(out: &mut Vec<u8>, m: &Mesh) {
    chunk(out, *b"MESH", |out| {
        i32s(out, &[m.brush]);
        for c in &m.chunks {
            match c {
                MeshChunk::Vrts(v) => vrts(out, v),
                MeshChunk::Tris(t) => tris(out, t),
                MeshChunk::Raw(r) => raw(out, r),
            }
        }
    });
}

fn vrts(out: &mut Vec<u8>, v: &Vrts) {
    chunk(out, *b"VRTS", |out| {
        i32s(out, &[v.flags, v.sets, v.set_size]);
        f32s(out, &v.data);
        out.extend_from_slice(&v.extra);
    });
}

fn tris(out: &mut Vec<u8>, t: &Tris) {
    chunk(out, *b"TRIS", |out| {
        i32s(out, &[t.brush]);
        for tri in &t.triangles {
            i32s(out, tri);
        }
        out.extend_from_slice(&t.extra);
    });
}

fn bone(out: &mut Vec<u8>, b: &Bone) {
    chunk(out, *b"BONE", |out| {
        for (v, w) in &b.weights {
            i32s(out, &[*v]);
            f32s(out, &[*w]);
        }
        out.extend_from_slice(&b.extra);
    });
}

fn keys(out: &mut Vec<u8>, k: &Keys) {
    chunk(out, *b"KEYS", |out| {
        i32s(out, &[k.flags]);
        for key in &k.keys {
            i32s(out, &[key.frame]);
            if k.flags & 1 != 0 {
                f32s(out, &key.position);
            }
            if k.flags & 2 != 0 {
                f32s(out, &key.scale);
            }
            if k.flags & 4 != 0 {
                f32s(out, &key.rotation);
            }
        }
        out.extend_from_slice(&k.extra);
    });
}

fn anim(out: &mut Vec<u8>, a: &Anim) {
    chunk(out, *b"ANIM", |out| {
        i32s(out, &[a.flags, a.frames]);
        f32s(out, &[a.fps]);
        out.extend_from_slice(&a.extra);
    });
}
