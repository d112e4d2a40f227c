package io.cairn.fuzz;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.archive.ArchiveChunk;
import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchiveLink;
import io.cairn.backupapi.archive.ArchiveLinkCodec;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.Crc32c;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.snapshot.store.ChecksumFile;
import io.cairn.snapshot.store.MetadataCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Timeout;

/**
 * Every file a restore, a verify or the log archive reads back from a backup store, where anyone
 * with write access to the bucket could have put anything: manifests, stored contents (compressed,
 * encrypted), archive links, restore points, chunks and keys, and a snapshot's checksum and
 * metadata files. Where a file carries a checksum of itself, a second target computes it, so the
 * fuzzer gets past it to the parser.
 */
class BackupStoreFilesFuzzTest {

  /** Larger than any fuzzed input: the limit itself is not what is being tested. */
  private static final long CONTENT_LIMIT_BYTES = 1 << 20;

  private static final ContentCipher AES_GCM =
      ContentCipher.aesGcm(
          new SecretKeySpec(new byte[32], "AES"),
          FileSetKind.SEGMENTS,
          "fuzzed",
          new SecureRandom());

  private final ManifestCodec manifests = new ManifestCodec();
  private final ArchiveLinkCodec links = new ArchiveLinkCodec();

  /** Manifests of format 1.0 and 1.1 carry no checksum, so the fuzzer reaches every field. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void manifests(byte[] input) {
    decodesOrRefuses(
        input, ManifestException.class, () -> manifests.decode(input, "fuzzed manifest"));
  }

  /**
   * The first byte picks compression and cipher; the rest is the stored object. Encrypted objects
   * fail authentication unless the fuzzer forges AES-GCM, which is the point of the cipher.
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void contents(byte[] input) {
    if (input.length == 0) {
      return;
    }
    Compression compression = (input[0] & 1) == 0 ? Compression.NONE : Compression.ZSTD;
    ContentCipher cipher = (input[0] & 2) == 0 ? ContentCipher.NONE : AES_GCM;
    byte[] stored = Arrays.copyOfRange(input, 1, input.length);
    decodesOrRefuses(
        stored,
        IOException.class,
        () ->
            ContentDecoder.decode(
                new ByteArrayInputStream(stored),
                compression,
                cipher,
                null,
                CONTENT_LIMIT_BYTES,
                decoded -> {}));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void archiveLinks(byte[] input) {
    decodesOrRefuses(input, ArchiveException.class, () -> links.decode(input, "fuzzed link"));
    decodesOrRefuses(
        input, ArchiveException.class, () -> links.decodePoint(input, 1, "fuzzed point"));
  }

  /** The input is the JSON of a link or restore point; its checksum line is appended here. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void archiveLinkBodies(byte[] input) {
    CRC32C crc = new CRC32C();
    crc.update(input);
    byte[] trailer =
        ("\n#crc32c=" + Crc32c.toHex(crc.getValue()) + "\n").getBytes(StandardCharsets.US_ASCII);
    byte[] stored = Arrays.copyOf(input, input.length + trailer.length);
    System.arraycopy(trailer, 0, stored, input.length, trailer.length);
    decodesOrRefuses(stored, ArchiveException.class, () -> links.decode(stored, "fuzzed link"));
    decodesOrRefuses(
        stored, ArchiveException.class, () -> links.decodePoint(stored, 1, "fuzzed point"));
  }

  /**
   * The first four bytes are the number of records the link names, the rest is the chunk; the
   * link's size and CRC32C match the chunk, as they would for a chunk written with its link by
   * someone who can write to the bucket.
   */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void archiveChunks(byte[] input) {
    if (input.length < Integer.BYTES) {
      return;
    }
    long records = 1 + Integer.toUnsignedLong(ByteBuffer.wrap(input).getInt());
    byte[] chunk = Arrays.copyOfRange(input, Integer.BYTES, input.length);
    CRC32C crc = new CRC32C();
    crc.update(chunk);
    ArchiveLink link =
        new ArchiveLink(
            1,
            1,
            records,
            1,
            records,
            0,
            ArchiveKeys.chunk(1, 1, records, 0),
            chunk.length,
            chunk.length,
            crc.getValue(),
            Compression.NONE,
            Optional.empty(),
            0,
            Instant.EPOCH,
            List.of());
    decodesOrRefuses(chunk, ArchiveException.class, () -> ArchiveChunk.decode(chunk, link));
  }

  /** Keys come from the store's listings. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void archiveKeys(byte[] input) {
    String key = new String(input, StandardCharsets.UTF_8);
    String link = ArchiveKeys.linksDirectory(1) + key;
    String point = ArchiveKeys.pointsDirectory(1) + key;
    decodesOrRefuses(input, ArchiveException.class, () -> ArchiveKeys.fromIndexOf(1, link));
    decodesOrRefuses(input, ArchiveException.class, () -> ArchiveKeys.checkpointIdOf(1, point));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void snapshotChecksumFiles(byte[] input) {
    decodesOrRefuses(input, IllegalArgumentException.class, () -> ChecksumFile.decode(input));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void snapshotMetadata(byte[] input) {
    decodesOrRefuses(input, IllegalArgumentException.class, () -> MetadataCodec.decode(input));
  }
}
