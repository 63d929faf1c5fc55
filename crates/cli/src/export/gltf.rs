//! glTF 2.0 export (`.glb`, `.gltf` + `.bin`) — lands with the conversion issue.
