package io.cairn.backupapi.manifest;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileSetKind;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The authentication of an encrypted backup's manifest ({@link ManifestEncryption#manifestMac}):
 * HMAC-SHA256, under a key derived from the backup's data key, over every field a restore trusts —
 * the id, the descriptor, the wrapped key and its id, and each file's name, sizes, CRC32C and
 * compression, in a fixed binary form (so neither JSON layout nor fields a newer version adds
 * change it). Timestamps and the status are not covered: only a COMPLETED manifest carries it.
 */
public final class ManifestMac {

  private static final byte[] KEY_LABEL =
      "cairn manifest mac v1".getBytes(StandardCharsets.US_ASCII);
  private static final String HMAC = "HmacSHA256";

  private ManifestMac() {}

  /** The {@code manifestMac} value for these fields. */
  public static String compute(
      SecretKey dataKey,
      BackupIdentifier id,
      BackupDescriptor descriptor,
      List<ManifestFile> snapshot,
      List<ManifestFile> segments,
      String keyId,
      String wrappedDataKey) {
    byte[] content = canonical(id, descriptor, snapshot, segments, keyId, wrappedDataKey);
    return ManifestEncryption.MAC_PREFIX + HexFormat.of().formatHex(hmac(macKey(dataKey), content));
  }

  /** Whether {@code manifest}'s recorded MAC is the one {@code dataKey} gives (constant time). */
  public static boolean matches(SecretKey dataKey, Manifest manifest) {
    ManifestEncryption encryption = manifest.encryption().orElseThrow();
    String expected =
        compute(
            dataKey,
            manifest.id(),
            manifest.descriptor().orElseThrow(),
            manifest.snapshot(),
            manifest.segments(),
            encryption.keyId(),
            encryption.wrappedDataKey());
    return MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.US_ASCII),
        encryption.manifestMac().getBytes(StandardCharsets.US_ASCII));
  }

  /** A key of its own for the MAC: the data key is never used for two purposes. */
  private static SecretKey macKey(SecretKey dataKey) {
    return new SecretKeySpec(hmac(dataKey, KEY_LABEL), HMAC);
  }

  private static byte[] hmac(SecretKey key, byte[] content) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key.getEncoded(), HMAC));
      return mac.doFinal(content);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Expected HMAC-SHA256 to be available, but " + e, e);
    }
  }

  private static byte[] canonical(
      BackupIdentifier id,
      BackupDescriptor d,
      List<ManifestFile> snapshot,
      List<ManifestFile> segments,
      String keyId,
      String wrappedDataKey) {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      text(out, "cairn-manifest-v1");
      out.writeInt(id.nodeId());
      out.writeInt(id.partitionId());
      out.writeLong(id.checkpointId());
      out.writeLong(d.checkpointId());
      out.writeInt(d.partitionId());
      out.writeInt(d.nodeId());
      out.writeLong(d.checkpointPosition());
      text(out, d.snapshotId().orElse(""));
      out.writeInt(d.numberOfPartitions());
      text(out, d.brokerVersion());
      text(out, d.stateDigest());
      out.writeInt(d.fileCount());
      out.writeLong(d.sizeBytes());
      out.writeInt(d.familyDigests().size());
      for (Map.Entry<String, String> family : d.familyDigests().entrySet()) {
        text(out, family.getKey());
        text(out, family.getValue());
      }
      text(out, keyId);
      text(out, wrappedDataKey);
      files(out, FileSetKind.SNAPSHOT, snapshot);
      files(out, FileSetKind.SEGMENTS, segments);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static void files(DataOutputStream out, FileSetKind kind, List<ManifestFile> files)
      throws IOException {
    text(out, kind.directoryName());
    out.writeInt(files.size());
    for (ManifestFile f : files) {
      text(out, f.name());
      out.writeLong(f.sizeBytes());
      out.writeLong(f.crc32c());
      out.writeLong(f.storedSizeBytes());
      text(out, f.compression().manifestName());
    }
  }

  /** Length-prefixed UTF-8, so no two field sequences encode alike. */
  private static void text(DataOutputStream out, String value) throws IOException {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(utf8.length);
    out.write(utf8);
  }
}
