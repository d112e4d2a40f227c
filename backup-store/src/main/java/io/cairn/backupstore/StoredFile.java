package io.cairn.backupstore;

import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.manifest.ManifestFile;

/**
 * One file of a save, stored: its manifest entry and whether its object was reused from the
 * previous backup rather than written.
 */
public record StoredFile(FileSetKind kind, ManifestFile entry, boolean reused) {}
