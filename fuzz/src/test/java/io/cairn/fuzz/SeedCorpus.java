package io.cairn.fuzz;

import com.github.luben.zstd.Zstd;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.ConfirmedBackup;
import io.cairn.backup.checkpoint.CheckpointStateCodec;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.archive.ArchiveChunk;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchiveLink;
import io.cairn.backupapi.archive.ArchiveLinkCodec;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.broker.interpartition.InterPartitionCodec;
import io.cairn.broker.partition.ArchivePeerRecords;
import io.cairn.db.Digest128;
import io.cairn.journal.SegmentedJournal;
import io.cairn.journal.segment.SegmentDescriptor;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordCodec;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.api.BackupScheduleCodec;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessageCodec;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.store.ChecksumFile;
import io.cairn.snapshot.store.MetadataCodec;
import io.cairn.transport.netty.FrameSeeds;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The seed inputs of the fuzz tests: one or a few valid encodings of each format, made by the
 * code's own encoders, so that fuzzing starts from inputs that get past the first checks. {@link
 * SeedCorpusTest} checks that the committed seeds are these bytes, and rewrites them when asked.
 * Seeds are named {@code seed-*}; inputs a fuzzing run found to fail are named {@code crash-*} by
 * Jazzer and committed beside them, and every {@code mvn verify} replays both.
 */
final class SeedCorpus {

  private SeedCorpus() {}

  /** Every seed, by its path under {@code src/test/resources}. */
  static Map<Path, byte[]> seeds() throws IOException {
    Map<Path, byte[]> seeds = new TreeMap<>();
    Record deposit = deposit(7);
    byte[] record = encode(deposit);
    RecordBatch batch = new RecordBatch(List.of(deposit, deposit(8)));
    byte[] batchBytes = new byte[RecordBatchCodec.encodedLength(batch)];
    RecordBatchCodec.encode(batch, new UnsafeBuffer(batchBytes), 0);

    write(
        seeds,
        FrameSeeds.test(),
        "frames",
        "request-and-response",
        FrameSeeds.requestAndResponse());
    write(
        seeds,
        FrameSeeds.test(),
        "frames",
        "message-and-refused-response",
        FrameSeeds.messageAndRefusedResponse());
    write(seeds, ProtocolFuzzTest.class, "records", "deposit", record);
    write(seeds, ProtocolFuzzTest.class, "records", "batch", batchBytes);
    write(
        seeds,
        ProtocolFuzzTest.class,
        "apiMessages",
        "topology-request",
        api(4, TopologyCodec.encodeRequest()));
    write(
        seeds,
        ProtocolFuzzTest.class,
        "apiMessages",
        "exporting-request",
        api(8, ExportingCodec.encodeRequest(ExportingOperation.PAUSE)));
    write(
        seeds,
        ProtocolFuzzTest.class,
        "apiMessages",
        "schedule-request",
        api(10, BackupScheduleCodec.encodeRequest()));

    write(
        seeds,
        RaftFuzzTest.class,
        "messages",
        "vote-request",
        RaftMessageCodec.encode(new RaftMessage.VoteRequest(3, 1, 10, 2, false)));
    write(
        seeds,
        RaftFuzzTest.class,
        "messages",
        "heartbeat",
        RaftMessageCodec.encode(new RaftMessage.AppendRequest(3, 1, 10, 2, 9, List.of())));
    DirectBuffer entry =
        RaftEntryCodec.encode(
            new RaftEntry(3, RaftEntryType.APPLICATION, 7, 8, new UnsafeBuffer(batchBytes)));
    write(seeds, RaftFuzzTest.class, "entries", "application", bytes(entry));

    write(
        seeds,
        JournalFuzzTest.class,
        "descriptors",
        "first-segment",
        bytes(new UnsafeBuffer(new SegmentDescriptor(1, 1, 4096).encode())));
    write(seeds, JournalFuzzTest.class, "segments", "three-records", segment(record));

    writeBackupStoreFiles(seeds, record);

    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "brokerConfig",
        "dist-broker-0",
        Files.readAllBytes(Path.of("../dist/src/main/dist/config/broker-0.yaml")));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "gatewayConfig",
        "dist-gateway",
        Files.readAllBytes(Path.of("../dist/src/main/dist/config/gateway.yaml")));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "apiKeyFiles",
        "two-keys",
        ("# keys\nbilling:client:sha256:"
                + "ab".repeat(32)
                + "\nops.alice : admin : sha256:"
                + "cd".repeat(32)
                + "   # on call\n")
            .getBytes(StandardCharsets.UTF_8));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "interPartitionMessages",
        "request",
        InterPartitionCodec.encodeRequest(2, deposit));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "interPartitionMessages",
        "response",
        InterPartitionCodec.encodeResponse(InterPartitionCodec.Status.WRITTEN, 1));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "archivePeerRecords",
        "request",
        ArchivePeerRecords.encodeRequest(2, 21, 40, 1024 * 1024));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "archivePeerRecords",
        "response",
        ArchivePeerRecords.encodeResponse(
            List.of(archivedRecord(21, record), archivedRecord(22, batchBytes))));
    var families = new TreeMap<String, Digest128>(Map.of("LEDGER_ACCOUNTS", new Digest128(1, 2)));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "checkpointState",
        "checkpoint",
        CheckpointStateCodec.encode(
            new Checkpoint(4, 2172, 1_700_000_000_000L, new Digest128(3, 4), families)));
    write(
        seeds,
        BrokerInputsFuzzTest.class,
        "checkpointState",
        "confirmed-backup",
        CheckpointStateCodec.encode(new ConfirmedBackup(4, 2172)));
    return seeds;
  }

  private static void writeBackupStoreFiles(Map<Path, byte[]> seeds, byte[] record)
      throws IOException {
    Class<?> test = BackupStoreFilesFuzzTest.class;
    write(seeds, test, "manifests", "format-1.1", MANIFEST_1_1.getBytes(StandardCharsets.UTF_8));
    write(
        seeds,
        test,
        "manifests",
        "format-1.0",
        MANIFEST_1_1
            .replace("\"1.1\"", "\"1.0\"")
            .replaceAll(",\\s*\"familyDigests\" : \\{[^}]*}", "")
            .getBytes(StandardCharsets.UTF_8));

    byte[] content = ("segment bytes " + "x".repeat(200)).getBytes(StandardCharsets.UTF_8);
    write(seeds, test, "contents", "plain", prefixed((byte) 0, content));
    write(seeds, test, "contents", "zstd", prefixed((byte) 1, Zstd.compress(content)));
    ByteArrayOutputStream sealed = new ByteArrayOutputStream();
    ContentCipher cipher =
        ContentCipher.aesGcm(
            new SecretKeySpec(new byte[32], "AES"),
            FileSetKind.SEGMENTS,
            "fuzzed",
            deterministicRandom());
    try (OutputStream out = cipher.encrypting(sealed)) {
      out.write(content);
    }
    write(seeds, test, "contents", "aes-gcm", prefixed((byte) 2, sealed.toByteArray()));

    List<ArchivedRecord> records =
        List.of(new ArchivedRecord(5, 7, 42, record), new ArchivedRecord(6, 8, 43, record));
    ArchiveChunk.Encoded chunk = ArchiveChunk.encode(records);
    byte[] chunkInput = new byte[Integer.BYTES + chunk.stored().length];
    chunkInput[3] = 1; // two records: the test adds one
    System.arraycopy(chunk.stored(), 0, chunkInput, Integer.BYTES, chunk.stored().length);
    write(seeds, test, "archiveChunks", "two-records", chunkInput);

    ArchivedCheckpoint point =
        new ArchivedCheckpoint(4, 2172, 1_700_000_000_000L, "8157ee6c62f5c0928a7b14415545c334", 6);
    ArchiveLink link =
        new ArchiveLink(
            1,
            5,
            6,
            2100,
            2172,
            43,
            ArchiveKeys.chunk(1, 5, 6, 0),
            chunk.sizeBytes(),
            chunk.stored().length,
            chunk.crc32c(),
            Compression.NONE,
            Optional.of(1234L),
            0,
            Instant.ofEpochMilli(1_700_000_000_000L),
            List.of(point));
    ArchiveLinkCodec codec = new ArchiveLinkCodec();
    byte[] storedLink = codec.encode(link);
    byte[] storedPoint = codec.encodePoint(1, point);
    write(seeds, test, "archiveLinks", "link", storedLink);
    write(seeds, test, "archiveLinks", "point", storedPoint);
    write(seeds, test, "archiveLinkBodies", "link", withoutChecksumLine(storedLink));
    write(seeds, test, "archiveLinkBodies", "point", withoutChecksumLine(storedPoint));
    write(
        seeds,
        test,
        "archiveKeys",
        "index",
        "0000000000000000042".getBytes(StandardCharsets.UTF_8));

    write(
        seeds,
        test,
        "snapshotChecksumFiles",
        "two-files",
        new ChecksumFile(
                Map.of(
                    "000011.sst", new ChecksumFile.Entry(1234, 0xABCDEFL),
                    "MANIFEST-000005", new ChecksumFile.Entry(99, 0x12345678L)))
            .encode());
    write(
        seeds,
        test,
        "snapshotMetadata",
        "snapshot",
        MetadataCodec.encode(
            new SnapshotMetadata(
                10,
                2,
                100,
                90,
                110,
                "0.1.0",
                1_700_000_000_000L,
                "8157ee6c62f5c0928a7b14415545c334")));
  }

  /** A manifest as format 1.1 wrote it: no checksum of its own, so fuzzing reaches its fields. */
  private static final String MANIFEST_1_1 =
      """
      {
        "manifestVersion" : "1.1",
        "id" : { "nodeId" : 0, "partitionId" : 1, "checkpointId" : 1 },
        "status" : "COMPLETED",
        "createdAt" : "2026-12-03T13:32:44.211Z",
        "updatedAt" : "2026-12-03T13:32:45.870Z",
        "descriptor" : {
          "checkpointId" : 1,
          "partitionId" : 1,
          "nodeId" : 0,
          "checkpointPosition" : 2172,
          "numberOfPartitions" : 3,
          "brokerVersion" : "0.1.0-SNAPSHOT",
          "stateDigest" : "8157ee6c62f5c0928a7b14415545c334",
          "fileCount" : 2,
          "sizeBytes" : 412782,
          "familyDigests" : {
            "LEDGER_ACCOUNTS" : "92894f22c799259f78a4b570a7c103f6"
          }
        },
        "files" : {
          "snapshot" : [ {
            "name" : "000011.sst",
            "sizeBytes" : 100,
            "crc32c" : "0000abcd",
            "storedSizeBytes" : 100,
            "compression" : "none"
          } ],
          "segments" : [ {
            "name" : "raft-partition-1-1.log",
            "sizeBytes" : 412682,
            "crc32c" : "b2f9ec47",
            "storedSizeBytes" : 201000,
            "compression" : "zstd"
          } ]
        }
      }
      """;

  /** The same nonces on every run, so that the seeds are the same bytes on every run. */
  private static SecureRandom deterministicRandom() {
    try {
      SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
      random.setSeed(42);
      return random;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("Expected the JDK's SHA1PRNG, but it is missing", e);
    }
  }

  private static byte[] segment(byte[] record) throws IOException {
    Path directory = Files.createTempDirectory("seed-journal");
    try (SegmentedJournal journal =
        SegmentedJournal.open(JournalFuzzTest.config(directory), new SimpleMeterRegistry())) {
      for (int asqn = 1; asqn <= 3; asqn++) {
        journal.append(asqn, new UnsafeBuffer(record));
      }
      journal.flush();
    }
    Path file = directory.resolve("journal-1.log");
    byte[] bytes = Files.readAllBytes(file);
    Files.delete(file);
    Files.delete(directory);
    return bytes;
  }

  private static Record deposit(long position) {
    return new Record(
        RecordMetadata.builder()
            .command(DepositIntent.DEPOSIT)
            .position(position)
            .timestamp(1_700_000_000_000L)
            .build(),
        new DepositValue("alice", 100));
  }

  private static byte[] encode(Record record) {
    byte[] bytes = new byte[RecordCodec.encodedLength(record)];
    RecordCodec.encode(record, new UnsafeBuffer(bytes), 0);
    return bytes;
  }

  private static byte[] api(int decoder, byte[] payload) {
    return prefixed((byte) decoder, payload);
  }

  private static byte[] prefixed(byte first, byte[] rest) {
    byte[] bytes = new byte[rest.length + 1];
    bytes[0] = first;
    System.arraycopy(rest, 0, bytes, 1, rest.length);
    return bytes;
  }

  private static byte[] withoutChecksumLine(byte[] stored) {
    String text = new String(stored, StandardCharsets.UTF_8);
    return text.substring(0, text.lastIndexOf("\n#crc32c=")).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(DirectBuffer buffer) {
    byte[] bytes = new byte[buffer.capacity()];
    buffer.getBytes(0, bytes);
    return bytes;
  }

  /** A record as a member's journal holds it: its checksum computed as the journal does. */
  private static ArchivedRecord archivedRecord(long index, byte[] data) {
    long asqn = index * 3;
    return new ArchivedRecord(
        index,
        asqn,
        io.cairn.journal.JournalRecord.computeChecksum(index, asqn, new UnsafeBuffer(data)),
        data);
  }

  private static void write(
      Map<Path, byte[]> seeds, Class<?> test, String method, String name, byte[] input) {
    seeds.put(
        Path.of(test.getPackageName().replace('.', '/'))
            .resolve(test.getSimpleName() + "Inputs")
            .resolve(method)
            .resolve("seed-" + name),
        input);
  }
}
