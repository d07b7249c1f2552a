// Empty: the translation unit that carries the precompiled header the driver libraries reuse.
