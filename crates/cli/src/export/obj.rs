//! Wavefront OBJ export of a posed model — lands with the anim issue.
