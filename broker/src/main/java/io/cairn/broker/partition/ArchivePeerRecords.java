package io.cairn.broker.partition;

import io.cairn.backup.archive.ArchivePeers;
import io.cairn.backup.archive.LogArchiver;
import io.cairn.backupapi.archive.ArchiveChunk;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.journal.JournalRecord;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MessagingService;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The log archive's request between the members of one partition (type {@code
 * archive-records-<partitionId>}): a new leader whose log starts after the archive's tail asks the
 * others for the committed records between ({@link ArchivePeers}), and each member answers from its
 * own journal ({@link LogArchiver#recordsForPeer}). Version 1, big-endian.
 *
 * <pre>
 *  request:  version (1), partition id (4), from index (8), to index (8), max bytes (4)
 *  response: version (1), record count n (4), then n records: index (8), asqn (8),
 *            checksum (4), data length (4), data
 * </pre>
 *
 * An answer is checked before it is used: consecutive indexes from the one asked, none past the
 * last asked, each record's CRC32C as the journal computes it. A member whose answer fails the
 * check counts as one that could not be asked.
 */
public final class ArchivePeerRecords implements ArchivePeers {

  static final byte VERSION = 1;
  private static final int REQUEST_BYTES = 25;
  private static final int RECORD_HEADER_BYTES = 24;
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final MessagingService messaging;
  private final int partitionId;
  private final List<Integer> members;

  /**
   * @param members the partition's members; this one is skipped
   */
  ArchivePeerRecords(MessagingService messaging, int partitionId, List<Integer> members) {
    this.messaging = messaging;
    this.partitionId = partitionId;
    this.members = List.copyOf(members);
  }

  static String messageType(int partitionId) {
    return "archive-records-" + partitionId;
  }

  /**
   * Answers the other members' requests with this member's own records ({@link
   * LogArchiver#recordsForPeer}), on {@code executor}.
   */
  static void serve(
      MessagingService messaging, int partitionId, ArchivePeers ownRecords, Executor executor) {
    messaging.registerRequestHandler(
        messageType(partitionId),
        (sender, payload) -> {
          Request request = decodeRequest(payload, partitionId);
          return ownRecords
              .committedRecords(request.from(), request.to(), request.maxBytes())
              .thenApply(ArchivePeerRecords::encodeResponse);
        },
        executor);
  }

  @Override
  public CompletableFuture<List<ArchivedRecord>> committedRecords(
      long from, long to, int maxBytes) {
    byte[] request = encodeRequest(partitionId, from, to, maxBytes);
    return ask(0, from, to, request, new ArrayList<>());
  }

  /** Asks the members from {@code next} on in turn until one holds the records. */
  private CompletableFuture<List<ArchivedRecord>> ask(
      int next, long from, long to, byte[] request, List<String> failures) {
    int member = next;
    while (member < members.size() && members.get(member) == messaging.localNodeId()) {
      member++;
    }
    if (member == members.size()) {
      return failures.isEmpty()
          ? CompletableFuture.completedFuture(List.of())
          : CompletableFuture.failedFuture(
              new IllegalStateException(
                  "no member answered with the records, and these could not be asked: "
                      + String.join("; ", failures)));
    }
    int nodeId = members.get(member);
    int following = member + 1;
    return messaging
        .sendAndReceive(nodeId, messageType(partitionId), request, TIMEOUT)
        .handle(
            (response, error) -> {
              if (error == null) {
                try {
                  List<ArchivedRecord> records = decodeResponse(response, from, to);
                  if (!records.isEmpty()) {
                    return CompletableFuture.completedFuture(records);
                  }
                  return ask(following, from, to, request, failures);
                } catch (IllegalArgumentException e) {
                  error = e;
                }
              }
              failures.add("member " + nodeId + ": " + Futures.unwrap(error).getMessage());
              return ask(following, from, to, request, failures);
            })
        .thenCompose(answer -> answer);
  }

  /** A decoded request: records {@code from} to {@code to}, about {@code maxBytes}. */
  public record Request(long from, long to, int maxBytes) {}

  public static byte[] encodeRequest(int partitionId, long from, long to, int maxBytes) {
    return ByteBuffer.allocate(REQUEST_BYTES)
        .put(VERSION)
        .putInt(partitionId)
        .putLong(from)
        .putLong(to)
        .putInt(maxBytes)
        .array();
  }

  /**
   * @throws IllegalArgumentException if the payload is not one valid request for {@code
   *     partitionId}
   */
  public static Request decodeRequest(byte[] payload, int partitionId) {
    if (payload.length != REQUEST_BYTES) {
      throw new IllegalArgumentException(
          "Expected an archive records request of "
              + REQUEST_BYTES
              + " bytes, but got "
              + payload.length);
    }
    ByteBuffer buffer = ByteBuffer.wrap(payload);
    byte version = buffer.get();
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "Expected an archive records request of version " + VERSION + ", but got " + version);
    }
    int partition = buffer.getInt();
    if (partition != partitionId) {
      throw new IllegalArgumentException(
          "Expected an archive records request for partition "
              + partitionId
              + ", but got one for "
              + partition);
    }
    long from = buffer.getLong();
    long to = buffer.getLong();
    int maxBytes = buffer.getInt();
    if (from < 1 || to < from) {
      throw new IllegalArgumentException(
          "Expected indexes 1 <= from <= to, but got from " + from + " to " + to);
    }
    if (maxBytes < 1 || maxBytes > ArchiveChunk.MAX_CHUNK_BYTES) {
      throw new IllegalArgumentException(
          "Expected max bytes of 1 to " + ArchiveChunk.MAX_CHUNK_BYTES + ", but got " + maxBytes);
    }
    return new Request(from, to, maxBytes);
  }

  public static byte[] encodeResponse(List<ArchivedRecord> records) {
    int length = 5;
    for (ArchivedRecord record : records) {
      length += RECORD_HEADER_BYTES + record.data().length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(length).put(VERSION).putInt(records.size());
    for (ArchivedRecord record : records) {
      buffer.putLong(record.index()).putLong(record.asqn()).putInt(record.checksum());
      buffer.putInt(record.data().length).put(record.data());
    }
    return buffer.array();
  }

  /**
   * @throws IllegalArgumentException if the payload is not one valid answer to a request for {@code
   *     from} to {@code to}
   */
  public static List<ArchivedRecord> decodeResponse(byte[] payload, long from, long to) {
    ByteBuffer buffer = ByteBuffer.wrap(payload);
    try {
      byte version = buffer.get();
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "Expected archive records of version " + VERSION + ", but got " + version);
      }
      int count = buffer.getInt();
      // each record takes at least its header: a count the bytes cannot hold sizes no list
      if (count < 0
          || count > LogArchive.MAX_CHUNK_RECORDS
          || count > buffer.remaining() / RECORD_HEADER_BYTES) {
        throw new IllegalArgumentException(
            "Expected at most "
                + Math.min(LogArchive.MAX_CHUNK_RECORDS, buffer.remaining() / RECORD_HEADER_BYTES)
                + " archive records, but the answer says "
                + count);
      }
      List<ArchivedRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        long index = buffer.getLong();
        long asqn = buffer.getLong();
        int checksum = buffer.getInt();
        int length = buffer.getInt();
        if (index != from + i || index > to) {
          throw new IllegalArgumentException(
              "Expected archive record " + (from + i) + " (at most " + to + "), but got " + index);
        }
        if (length < 0 || length > buffer.remaining()) {
          throw new IllegalArgumentException(
              "Expected a record length of 0 to "
                  + buffer.remaining()
                  + " for index "
                  + index
                  + ", but got "
                  + length);
        }
        byte[] data = new byte[length];
        buffer.get(data);
        int computed = JournalRecord.computeChecksum(index, asqn, new UnsafeBuffer(data));
        if (computed != checksum) {
          throw new IllegalArgumentException(
              "Expected the checksum of archive record "
                  + index
                  + " to be "
                  + Integer.toHexString(computed)
                  + ", but it says "
                  + Integer.toHexString(checksum));
        }
        records.add(new ArchivedRecord(index, asqn, checksum, data));
      }
      if (buffer.hasRemaining()) {
        throw new IllegalArgumentException(
            "Expected no bytes after "
                + count
                + " archive records, but "
                + buffer.remaining()
                + " remain");
      }
      return records;
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("Expected complete archive records, but they end early");
    }
  }
}
