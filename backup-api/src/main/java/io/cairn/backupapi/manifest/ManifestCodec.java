package io.cairn.backupapi.manifest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.ObjectNames;
import io.cairn.backupapi.content.Crc32c;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes manifests as versioned JSON. Thread-safe.
 *
 * <p>Format {@value #FORMAT_VERSION}: a {@code manifestVersion} "major.minor" string; readers
 * accept every minor version of their major and ignore fields they do not know (a minor version
 * only adds optional fields), and refuse another major version. Everything read is validated: ids,
 * status rules, sizes, checksums, and every file name against {@link ObjectNames}, so a hostile
 * manifest cannot make restore write outside its target. Errors name the manifest and what is
 * wrong.
 *
 * <p>From format 1.2 a manifest carries a checksum of its own content in {@code manifestChecksum}
 * (see {@link ManifestChecksum}), so that any change of a stored manifest is refused, naming the
 * manifest, even one that leaves it valid JSON with valid fields. {@link #decode} verifies it
 * whenever it is present, whatever the version says (the version is covered too); a manifest
 * without it is accepted only as format 1.0 or 1.1, written before it existed.
 */
public final class ManifestCodec {

  public static final int FORMAT_MAJOR = 1;

  /**
   * 1.1 added the optional {@code descriptor.familyDigests}; 1.2 added the required top-level
   * {@code manifestChecksum}; 1.3 the optional {@code encryption} of a COMPLETED manifest ({@link
   * ManifestEncryption}).
   */
  public static final int FORMAT_MINOR = 3;

  /** The first minor version whose manifests must carry {@code manifestChecksum}. */
  static final int CHECKSUM_REQUIRED_FROM_MINOR = 2;

  public static final String FORMAT_VERSION = FORMAT_MAJOR + "." + FORMAT_MINOR;

  /** Larger manifests are refused before parsing (a 10 000-file manifest is about 2 MiB). */
  public static final int MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

  private static final Pattern VERSION = Pattern.compile("([0-9]{1,9})\\.([0-9]{1,9})");

  private final ObjectMapper mapper =
      new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .configure(SerializationFeature.INDENT_OUTPUT, true);

  /**
   * Encodes a manifest as UTF-8 JSON of the current format version, sealed with its {@code
   * manifestChecksum}.
   */
  public byte[] encode(Manifest manifest) {
    var d = manifest.descriptor();
    var dto =
        new ManifestDto(
            FORMAT_VERSION,
            new IdDto(
                manifest.id().nodeId(), manifest.id().partitionId(), manifest.id().checkpointId()),
            manifest.status().name(),
            manifest.failureReason().orElse(null),
            manifest.createdAt().toString(),
            manifest.updatedAt().toString(),
            d.map(ManifestCodec::toDto).orElse(null),
            new FilesDto(toDtos(manifest.snapshot()), toDtos(manifest.segments())),
            manifest
                .encryption()
                .map(e -> new EncryptionDto(e.keyId(), e.wrappedDataKey(), e.manifestMac()))
                .orElse(null));
    try {
      ObjectNode tree = mapper.valueToTree(dto);
      return mapper.writeValueAsBytes(ManifestChecksum.seal(tree));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Expected to encode manifest of " + manifest.id(), e);
    }
  }

  /**
   * Decodes and validates a manifest.
   *
   * @param source where it was read (path or object key), used in error messages
   * @throws ManifestException naming {@code source} and the problem
   */
  public Manifest decode(byte[] json, String source) {
    if (json.length > MAX_MANIFEST_BYTES) {
      throw error(
          source,
          "a manifest of at most " + MAX_MANIFEST_BYTES + " bytes",
          "it has " + json.length);
    }
    JsonNode tree;
    try {
      tree = mapper.readTree(json);
    } catch (JsonProcessingException e) {
      throw new ManifestException(
          source,
          "Expected a JSON manifest, but it cannot be parsed: "
              + e.getOriginalMessage()
              + " (manifest "
              + source
              + ")",
          e);
    } catch (IOException e) {
      throw new ManifestException(
          source,
          "Expected a readable manifest, but " + e.getMessage() + " (manifest " + source + ")",
          e);
    }
    if (tree == null || !tree.isObject()) {
      throw error(
          source, "a JSON object", "it is " + (tree == null ? "empty" : tree.getNodeType()));
    }
    int minor = checkVersion(tree.get("manifestVersion"), source);
    checkChecksum((ObjectNode) tree, minor, source);
    ManifestDto dto;
    try {
      dto = mapper.treeToValue(tree, ManifestDto.class);
    } catch (JsonProcessingException e) {
      throw new ManifestException(
          source,
          "Expected a manifest of format "
              + FORMAT_MAJOR
              + ".x, but its fields do not fit: "
              + e.getOriginalMessage()
              + " (manifest "
              + source
              + ")",
          e);
    }
    try {
      return fromDto(dto, source);
    } catch (IllegalArgumentException e) {
      throw new ManifestException(source, e.getMessage() + " (manifest " + source + ")", e);
    }
  }

  /**
   * Decodes a manifest that must belong to {@code expected}.
   *
   * @throws ManifestException if it is invalid or describes another backup
   */
  public Manifest decode(byte[] json, String source, BackupIdentifier expected) {
    Manifest manifest = decode(json, source);
    if (!manifest.id().equals(expected)) {
      throw error(source, "the manifest of " + expected, "it describes " + manifest.id());
    }
    return manifest;
  }

  /** Returns the minor version after checking the major one. */
  private static int checkVersion(JsonNode version, String source) {
    if (version == null || !version.isTextual()) {
      throw error(
          source,
          "a manifestVersion string \"major.minor\"",
          version == null ? "it is missing" : "it is " + version);
    }
    Matcher m = VERSION.matcher(version.asText());
    if (!m.matches()) {
      throw error(source, "a manifestVersion \"major.minor\"", "it is '" + version.asText() + "'");
    }
    int major = Integer.parseInt(m.group(1));
    if (major != FORMAT_MAJOR) {
      throw new ManifestException(
          source,
          "Expected manifest format version "
              + FORMAT_MAJOR
              + ".x, but it is "
              + version.asText()
              + " (manifest "
              + source
              + "). It was written by another Cairn "
              + "version; read it with a version that knows format "
              + major
              + ".");
    }
    return Integer.parseInt(m.group(2));
  }

  /** Verifies and removes {@code manifestChecksum}, or checks that the version may lack it. */
  private static void checkChecksum(ObjectNode tree, int minor, String source) {
    JsonNode recorded = tree.remove(ManifestChecksum.FIELD);
    if (recorded == null) {
      if (minor >= CHECKSUM_REQUIRED_FROM_MINOR) {
        throw new ManifestException(
            source,
            "Expected "
                + ManifestChecksum.FIELD
                + " in a manifest of format "
                + tree.get("manifestVersion").asText()
                + ", but it is missing (manifest "
                + source
                + "): the manifest was changed or damaged. Use another copy of this backup or "
                + "delete it.");
      }
      return;
    }
    if (!recorded.isTextual() || !ManifestChecksum.isWellFormed(recorded.asText())) {
      throw error(
          source,
          ManifestChecksum.FIELD
              + " \""
              + ManifestChecksum.PREFIX
              + "\" and 8 lowercase hex digits",
          "it is " + recorded);
    }
    String actual = ManifestChecksum.of(tree);
    if (!actual.equals(recorded.asText())) {
      throw new ManifestException(
          source,
          "Expected "
              + ManifestChecksum.FIELD
              + " "
              + recorded.asText()
              + " to match the "
              + "manifest's content, but it is "
              + actual
              + ": the manifest was changed or "
              + "damaged (manifest "
              + source
              + "). Use another copy of this backup or delete it.");
    }
  }

  private static Manifest fromDto(ManifestDto dto, String source) {
    IdDto idDto = required(dto.id(), "id");
    var id =
        new BackupIdentifier(
            required(idDto.nodeId(), "id.nodeId"),
            required(idDto.partitionId(), "id.partitionId"),
            required(idDto.checkpointId(), "id.checkpointId"));
    String statusName = required(dto.status(), "status");
    BackupStatusCode status;
    try {
      status = BackupStatusCode.valueOf(statusName);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Expected status IN_PROGRESS, COMPLETED or FAILED, but was '" + statusName + "'");
    }
    Optional<BackupDescriptor> descriptor =
        Optional.ofNullable(dto.descriptor()).map(ManifestCodec::fromDto);
    FilesDto files = dto.files() == null ? new FilesDto(List.of(), List.of()) : dto.files();
    return new Manifest(
        id,
        status,
        descriptor,
        Optional.ofNullable(dto.failureReason()),
        instant(dto.createdAt(), "createdAt"),
        instant(dto.updatedAt(), "updatedAt"),
        fromDtos(files.snapshot(), FileSetKind.SNAPSHOT, source),
        fromDtos(files.segments(), FileSetKind.SEGMENTS, source),
        Optional.ofNullable(dto.encryption()).map(ManifestCodec::fromDto));
  }

  private static ManifestEncryption fromDto(EncryptionDto e) {
    return new ManifestEncryption(
        required(e.keyId(), "encryption.keyId"),
        required(e.wrappedDataKey(), "encryption.wrappedDataKey"),
        required(e.manifestMac(), "encryption.manifestMac"));
  }

  private static BackupDescriptor fromDto(DescriptorDto d) {
    return new BackupDescriptor(
        required(d.checkpointId(), "descriptor.checkpointId"),
        required(d.partitionId(), "descriptor.partitionId"),
        required(d.nodeId(), "descriptor.nodeId"),
        required(d.checkpointPosition(), "descriptor.checkpointPosition"),
        Optional.ofNullable(d.snapshotId()),
        required(d.numberOfPartitions(), "descriptor.numberOfPartitions"),
        required(d.brokerVersion(), "descriptor.brokerVersion"),
        required(d.stateDigest(), "descriptor.stateDigest"),
        required(d.fileCount(), "descriptor.fileCount"),
        required(d.sizeBytes(), "descriptor.sizeBytes"),
        d.familyDigests() == null ? new TreeMap<>() : new TreeMap<>(d.familyDigests()));
  }

  private static List<ManifestFile> fromDtos(List<FileDto> dtos, FileSetKind kind, String source) {
    if (dtos == null) {
      return List.of();
    }
    List<ManifestFile> files = new ArrayList<>(dtos.size());
    for (FileDto f : dtos) {
      if (f == null) {
        throw new IllegalArgumentException(
            "Expected file entries, but the " + kind.directoryName() + " list holds null");
      }
      String name = required(f.name(), kind.directoryName() + " file name");
      ObjectNames.violation(name)
          .ifPresent(
              why -> {
                throw new ManifestException(
                    source,
                    "Expected relative object names without '..', '.', empty segments, backslashes or "
                        + "control characters, but "
                        + kind.directoryName()
                        + " file '"
                        + name
                        + "' is not: "
                        + why
                        + " (manifest "
                        + source
                        + "). The manifest was not written "
                        + "by Cairn or was altered; delete this backup.");
              });
      String crc = required(f.crc32c(), "crc32c of '" + name + "'");
      String compression = required(f.compression(), "compression of '" + name + "'");
      files.add(
          new ManifestFile(
              name,
              required(f.sizeBytes(), "sizeBytes of '" + name + "'"),
              Crc32c.fromHex(crc),
              required(f.storedSizeBytes(), "storedSizeBytes of '" + name + "'"),
              Compression.fromManifestName(compression)));
    }
    return files;
  }

  private static Instant instant(String text, String field) {
    try {
      return Instant.parse(required(text, field));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Expected " + field + " as an ISO-8601 instant, but was '" + text + "'");
    }
  }

  private static <T> T required(T value, String field) {
    if (value == null) {
      throw new IllegalArgumentException("Expected field " + field + ", but it is missing");
    }
    return value;
  }

  private static ManifestException error(String source, String expected, String actual) {
    return new ManifestException(
        source, "Expected " + expected + ", but " + actual + " (manifest " + source + ")");
  }

  private static DescriptorDto toDto(BackupDescriptor d) {
    return new DescriptorDto(
        d.checkpointId(),
        d.partitionId(),
        d.nodeId(),
        d.checkpointPosition(),
        d.snapshotId().orElse(null),
        d.numberOfPartitions(),
        d.brokerVersion(),
        d.stateDigest(),
        d.fileCount(),
        d.sizeBytes(),
        d.familyDigests().isEmpty() ? null : d.familyDigests());
  }

  private static List<FileDto> toDtos(List<ManifestFile> files) {
    return files.stream()
        .map(
            f ->
                new FileDto(
                    f.name(),
                    f.sizeBytes(),
                    f.crc32cHex(),
                    f.storedSizeBytes(),
                    f.compression().manifestName()))
        .toList();
  }

  // JSON shapes. Boxed types so that a missing field is seen as null and reported by name.

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record ManifestDto(
      String manifestVersion,
      IdDto id,
      String status,
      String failureReason,
      String createdAt,
      String updatedAt,
      DescriptorDto descriptor,
      FilesDto files,
      EncryptionDto encryption) {}

  record EncryptionDto(String keyId, String wrappedDataKey, String manifestMac) {}

  record IdDto(Integer nodeId, Integer partitionId, Long checkpointId) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record DescriptorDto(
      Long checkpointId,
      Integer partitionId,
      Integer nodeId,
      Long checkpointPosition,
      String snapshotId,
      Integer numberOfPartitions,
      String brokerVersion,
      String stateDigest,
      Integer fileCount,
      Long sizeBytes,
      Map<String, String> familyDigests) {}

  record FilesDto(List<FileDto> snapshot, List<FileDto> segments) {}

  record FileDto(
      String name, Long sizeBytes, String crc32c, Long storedSizeBytes, String compression) {}
}
