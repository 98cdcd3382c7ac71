"""Which plugins fit the running host: the contract version and plugins' declared ranges.

The host is the distribution ``puzzle-engine``. Its plugin contract (the names in
``engine.__all__``, the hook specs, the methods the engine calls) has a version,
:data:`CONTRACT_VERSION`, which is the host's ``MAJOR.MINOR`` while the major version is 0
(the host's patch releases never change the contract). A plugin states what it works with in
its own distribution's metadata, as an ordinary dependency::

    dependencies = ["puzzle-engine>=0.1,<0.2"]

which becomes ``Requires-Dist: puzzle-engine<0.2,>=0.1`` in the installed ``METADATA``. The
host reads that line before importing the plugin (:func:`incompatibility`); a plugin whose
range leaves the running version out is not imported, and every listing says why in one line.
A plugin that declares no range is loaded as before.
"""

from __future__ import annotations

import re
from importlib import metadata

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from .i18n import _

#: The host's distribution name (what plugins name in ``Requires-Dist``).
HOST_DISTRIBUTION = "puzzle-engine"
#: The plugin contract's version: the host's MAJOR.MINOR while MAJOR is 0 (see docs/plugins.md).
CONTRACT_VERSION = "0.1"
#: Used when the host runs from a source tree that was never installed (no metadata to read).
_SOURCE_VERSION = "0.1.0"


def host_version() -> str:
    """The running host's version, from its installed metadata."""
    try:
        return metadata.version(HOST_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _SOURCE_VERSION


def contract_range() -> str:
    """The ``Requires-Dist`` range a plugin written against this contract declares."""
    major, minor = (int(part) for part in CONTRACT_VERSION.split("."))
    upper = f"{major + 1}" if major else f"{major}.{minor + 1}"
    return f"{HOST_DISTRIBUTION}>={CONTRACT_VERSION},<{upper}"


def host_requirements(dist: metadata.Distribution | None) -> list[Requirement]:
    """The distribution's ``Requires-Dist`` lines that name the host and apply here.

    Lines with an environment marker that is false (for example ``extra == "test"``) do not
    apply; an unreadable line is ignored, as pip would refuse it anyway.
    """
    if dist is None:
        return []
    found = []
    for line in dist.requires or []:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) != HOST_DISTRIBUTION:
            continue
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        found.append(req)
    return found


def incompatibility(dist: metadata.Distribution | None, running: str | None = None) -> str | None:
    """Why this distribution's plugins must not load here, in a few words; None if they may.

    For example ``needs puzzle-engine<0.1, this is 0.2.0``. The host's own distribution (the
    built-in plugins) always fits.
    """
    if dist is None or canonicalize_name(dist.metadata["Name"] or "") == HOST_DISTRIBUTION:
        return None
    running = running or host_version()
    try:
        version = Version(running)
    except InvalidVersion:
        return None
    for req in host_requirements(dist):
        # A pre-release host still counts as inside ">=0.1": pip's own pre-release rule is for
        # choosing what to install, not for deciding whether what is installed fits.
        if req.specifier and not req.specifier.contains(version, prereleases=True):
            return f"needs {HOST_DISTRIBUTION}{readable_range(req.specifier)}, this is {running}"
    return None


_NEEDS = re.compile(r"needs (\S+?)([<>=!~]\S*), this is (\S+)")


def needs_words(needs: str) -> str:
    """:func:`incompatibility`'s words in the current locale. The reason is kept in English where
    it is made (it is data: ``puzzle plugins --json`` and every process share it) and worded for
    the reader where it is shown: "needs puzzle-engine<0.1, this is 0.2.0" is
    "需要 puzzle-engine<0.1，当前是 0.2.0" in Chinese. Any other text is given as it is."""
    match = _NEEDS.fullmatch(needs.strip()) if isinstance(needs, str) else None
    if match is None:
        return needs
    host, wanted, running = match.groups()
    return _("needs {host}{range}, this is {version}").format(host=host, range=wanted, version=running)


#: Where each operator goes in :func:`readable_range`: lower bounds, then the rest, then upper.
_OPERATOR_PLACE = {">": 0, ">=": 0, "~=": 1, "==": 1, "===": 1, "!=": 2, "<=": 3, "<": 3}


def readable_range(specifier: SpecifierSet) -> str:
    """The range as a person writes it, lower bound first: ``>=0.1,<0.2`` (``packaging`` sorts
    the parts as text, which gives ``<0.2,>=0.1``)."""
    return ",".join(str(s) for s in sorted(specifier, key=lambda s: (_OPERATOR_PLACE.get(s.operator, 1), str(s))))
