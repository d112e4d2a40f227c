package io.cairn.backuptestkit;

import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.scheduler.Clock;

/**
 * What the test kit asks of a store it creates.
 *
 * @param compression the store's compression policy
 * @param clock the time source for manifest timestamps
 */
public record StoreSettings(CompressionPolicy compression, Clock clock) {}
