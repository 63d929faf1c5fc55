"""Archives and checksums for `cargo xtask dist`, run by the Python every artifact step needs.

    archive.py tar.gz OUT (SOURCE NAME)...   a gzip tarball, entries in the order given
    archive.py zip OUT (SOURCE NAME)...      a deflated zip
    archive.py sha256 FILE...                FILE.sha256 beside each: "<hex>  <file name>"

Entries are owned by root with mode 644, or 755 for a file its source marks executable, so
an archive does not carry the builder's user names or umask.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tarfile
import zipfile


def pairs(args: list[str]) -> list[tuple[str, str]]:
    if len(args) % 2:
        sys.exit("archive.py: entries come as SOURCE NAME pairs")
    return list(zip(args[0::2], args[1::2]))


def mode_of(source: str) -> int:
    return 0o755 if os.access(source, os.X_OK) else 0o644


def write_tar(out: str, entries: list[tuple[str, str]]) -> None:
    with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for source, name in entries:
            info = tar.gettarinfo(source, name)
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode = mode_of(source)
            with open(source, "rb") as f:
                tar.addfile(info, f)


def write_zip(out: str, entries: list[tuple[str, str]]) -> None:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for source, name in entries:
            info = zipfile.ZipInfo.from_file(source, name)
            info.external_attr = (0o100000 | mode_of(source)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(source, "rb") as f:
                z.writestr(info, f.read(), compresslevel=9)


def write_sha256(path: str) -> None:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    with open(path + ".sha256", "w", newline="\n") as f:
        f.write(f"{digest.hexdigest()}  {os.path.basename(path)}\n")


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    if command == "tar.gz":
        write_tar(rest[0], pairs(rest[1:]))
    elif command == "zip":
        write_zip(rest[0], pairs(rest[1:]))
    elif command == "sha256":
        for path in rest:
            write_sha256(path)
    else:
        sys.exit(f"archive.py: unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
