//! Games on graphs (arenas): formats, objectives, certificate checking.
