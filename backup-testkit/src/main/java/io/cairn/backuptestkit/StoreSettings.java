package io.cairn.backuptestkit;

import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.scheduler.Clock;

/**
 * What the test kit asks of a store it creates.
 *
 * @param compression the store's compression policy
 * @param encryption the store's client-side encryption
 * @param clock the time source for manifest timestamps
 */
public record StoreSettings(
    CompressionPolicy compression, BackupEncryption encryption, Clock clock) {}
