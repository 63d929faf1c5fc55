"""Leaving the scene as it was when an import fails part way."""

from __future__ import annotations

from typing import Any

import bpy

#: The data collections an import adds to.
_COLLECTIONS = ("objects", "meshes", "armatures", "actions", "materials", "images", "textures", "collections")


class Snapshot:
    """What the file and the scene held before an import; `restore` removes what was added
    since and puts the scene's frame rate and range back."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.before = {name: set(getattr(bpy.data, name)) for name in _COLLECTIONS}
        render = scene.render
        self.settings = (render.fps, render.fps_base, scene.frame_start, scene.frame_end, scene.frame_current)
        self.tracks: dict = {}
        self.active: dict = {}
        for obj in bpy.data.objects:
            data = obj.animation_data
            if data is not None:
                self.tracks[obj.name] = {t.name for t in data.nla_tracks}
                self.active[obj.name] = data.action

    def added(self, name: str) -> list:
        """The datablocks of `bpy.data.<name>` made since the snapshot."""
        return [d for d in getattr(bpy.data, name) if d not in self.before[name]]

    def restore(self) -> None:
        """Removes every datablock made since, and restores the scene's settings."""
        for obj in self.before["objects"]:
            data = obj.animation_data
            if data is None or obj.name not in self.tracks:
                continue
            for track in list(data.nla_tracks):
                if track.name not in self.tracks[obj.name]:
                    data.nla_tracks.remove(track)
            if data.action is not self.active.get(obj.name):
                data.action = self.active.get(obj.name)
        for name in _COLLECTIONS:
            store = getattr(bpy.data, name)
            for block in self.added(name):
                try:
                    store.remove(block)
                except (ReferenceError, RuntimeError):
                    pass
        render = self.scene.render
        render.fps, render.fps_base = self.settings[0], self.settings[1]
        self.scene.frame_start, self.scene.frame_end = self.settings[2], self.settings[3]
        self.scene.frame_set(self.settings[4])
