package io.cairn.backupapi;

/**
 * Where a restore stands. Bytes are uncompressed content bytes.
 *
 * @param fileSet the set of the file being restored
 * @param fileName the file being restored
 * @param fileBytesDone bytes of that file written so far
 * @param fileSizeBytes that file's size
 * @param totalBytesDone bytes of every file written so far
 * @param totalSizeBytes the backup's size
 * @param filesDone files completely restored and verified
 * @param fileCount the backup's file count
 */
public record RestoreProgress(
    FileSetKind fileSet,
    String fileName,
    long fileBytesDone,
    long fileSizeBytes,
    long totalBytesDone,
    long totalSizeBytes,
    int filesDone,
    int fileCount) {}
