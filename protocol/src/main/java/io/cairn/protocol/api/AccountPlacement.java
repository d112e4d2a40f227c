package io.cairn.protocol.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Which partition owns an account: {@code partition = crc32c(utf8(accountId)) mod P + 1}, where
 * {@code crc32c} is the CRC-32C (Castagnoli) checksum of the id's UTF-8 bytes read as an unsigned
 * 32-bit number and {@code P} is the partition count (DESIGN.md §6). The rule is part of the data
 * format: changing it moves accounts, so it never changes for an existing cluster. The gateway
 * routes with it and the engine must place accounts with the very same rule.
 *
 * <p>Immutable and thread-safe.
 */
public final class AccountPlacement {

  private final int partitionCount;

  /**
   * @throws IllegalArgumentException if {@code partitionCount} is not in [1, {@link
   *     ApiDescriptor#PARTITION_ID_MAX}]
   */
  public AccountPlacement(int partitionCount) {
    if (partitionCount < 1 || partitionCount > ApiDescriptor.PARTITION_ID_MAX) {
      throw new IllegalArgumentException(
          "Expected partitionCount in [1, "
              + ApiDescriptor.PARTITION_ID_MAX
              + "], but was "
              + partitionCount
              + " (account placement)");
    }
    this.partitionCount = partitionCount;
  }

  public int partitionCount() {
    return partitionCount;
  }

  /** The partition ({@code 1..P}) that owns {@code accountId}. */
  public int partitionOf(String accountId) {
    return (int) (hash(accountId) % partitionCount) + 1;
  }

  /** The placement hash: CRC-32C of the UTF-8 bytes, unsigned, in [0, 2^32). */
  public static long hash(String accountId) {
    Objects.requireNonNull(accountId, "accountId");
    CRC32C crc = new CRC32C();
    crc.update(accountId.getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  @Override
  public String toString() {
    return "AccountPlacement{crc32c mod " + partitionCount + " + 1}";
  }
}
