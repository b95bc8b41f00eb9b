// SnapdiffModel's types (element trees, keys, settings, record modes, files) are part of the
// engine's vocabulary: `import SnapdiffCore` brings them too.
@_exported import SnapdiffModel
