// SnapdiffModel's types (element trees, keys, settings, record modes, files) are part of the
// engine's vocabulary: `import SnapdiffCore` brings them, as it did before they moved.
@_exported import SnapdiffModel
