package io.cairn.backupstore;

import java.util.concurrent.Callable;

/**
 * The work on one file of a save, restore or verify, which an {@link ObjectLayer} runs beside the
 * others.
 *
 * @param name the file, for messages ({@code <set>/<name>})
 * @param sizeBytes its size, so a layer may start the largest first
 */
public record FileTask<T>(String name, long sizeBytes, Callable<T> work) {}
