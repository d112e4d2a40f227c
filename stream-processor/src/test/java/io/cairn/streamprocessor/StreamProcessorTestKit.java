package io.cairn.streamprocessor;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.db.StateDigest;
import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs stream processors for tests: one {@link InMemoryLogStream}, a {@link DeterministicScheduler}
 * on a {@link SimClock}, and one or more replicas of the partition's state, each a real RocksDB
 * database in its own directory with its own stream processor. Every step is explicit and
 * deterministic: write commands, {@link #runUntilIdle()}, read the committed follow-ups and the
 * responses.
 *
 * <pre>{@code
 * try (StreamProcessorTestKit kit = StreamProcessorTestKit.builder()
 *     .directory(tempDir)
 *     .families(List.of(LedgerFamily.values()))
 *     .processors((db, registry) -> Ledger.register(db, registry))
 *     .build()) {
 *   kit.startLeader();
 *   long position = kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
 *   kit.runUntilIdle();
 *   assertThat(kit.followUps(position)).extracting(r -> r.metadata().intent())
 *       .containsExactly(AccountIntent.CREATED);
 *   assertThat(kit.responseTo(kit.lastRequestId())).isPresent();
 * }
 * }</pre>
 *
 * <p>The leader replica is {@link #leader()}; the kit's shorthands act on it. Further replicas
 * ({@link #replica(String)}) share the log, e.g. to check that a follower's replay reaches the
 * leader's state. The log is the one of the partition: a replica in {@link
 * StreamProcessorMode#LEADER} mode writes to it.
 *
 * <p>Modules using this kit need both test jars: {@code cairn-stream-processor} and {@code
 * cairn-logstreams} (type {@code test-jar}, scope {@code test}).
 */
public final class StreamProcessorTestKit implements AutoCloseable {

  /** The partition the kit's log belongs to. */
  public static final int PARTITION_ID = 1;

  /** The request stream the kit's commands carry. */
  public static final int REQUEST_STREAM_ID = 1;

  /** Registers a replica's processors, appliers and interceptors over its database. */
  @FunctionalInterface
  public interface ProcessorsSetup {
    void register(CairnDb db, RecordProcessors.Builder builder);
  }

  /** A response the stream processor sent. */
  public record Response(int requestStreamId, long requestId, Record record) {}

  private final Path directory;
  private final List<ColumnFamilyDefinition> families;
  private final ProcessorsSetup setup;
  private final StreamProcessorConfig processorConfig;
  private final SimClock clock;
  private final DeterministicScheduler scheduler;
  private final InMemoryLogStream logStream;
  private final Map<String, Replica> replicas = new LinkedHashMap<>();
  private final Replica leader;
  private final int nodeId;
  private long nextRequestId = 1;

  private StreamProcessorTestKit(Builder builder) {
    directory = builder.directory;
    families = List.copyOf(builder.families);
    setup = builder.setup;
    processorConfig = builder.processorConfig;
    nodeId = builder.nodeId;
    clock = new SimClock(builder.startMillis);
    scheduler = new DeterministicScheduler(clock);
    logStream = new InMemoryLogStream(PARTITION_ID, clock, builder.logStreamConfig);
    leader = replica("leader");
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---- replicas ---------------------------------------------------------------------------------

  /** The main replica (created with the kit). */
  public Replica leader() {
    return leader;
  }

  /** The replica named {@code name}, created (state empty, not started) on first use. */
  public Replica replica(String name) {
    return replica(name, setup);
  }

  /** The replica named {@code name} with its own setup, created on first use. */
  public Replica replica(String name, ProcessorsSetup replicaSetup) {
    return replicas.computeIfAbsent(name, n -> new Replica(n, directory.resolve(n), replicaSetup));
  }

  /** Starts the leader replica as leader and runs until idle. */
  public StreamProcessor startLeader() {
    return leader.start(StreamProcessorMode.LEADER);
  }

  /** Starts the leader replica as follower and runs until idle. */
  public StreamProcessor startFollower() {
    return leader.start(StreamProcessorMode.FOLLOWER);
  }

  // ---- writing ----------------------------------------------------------------------------------

  /**
   * Writes a client command (a new request id, {@link #REQUEST_STREAM_ID}) and returns its
   * position; it is processed by the next run.
   *
   * @throws AssertionError if the log does not take it
   */
  public long writeCommand(Intent intent, RecordValue value) {
    return writeCommand(intent, RecordMetadata.NO_KEY, value);
  }

  /** {@link #writeCommand(Intent, RecordValue)} with a key. */
  public long writeCommand(Intent intent, long key, RecordValue value) {
    return write(
        new Record(
            RecordMetadata.builder()
                .command(intent)
                .key(key)
                .requestId(nextRequestId++)
                .requestStreamId(REQUEST_STREAM_ID)
                .build(),
            value));
  }

  /** Writes records as one batch (positions unset) and returns the position of the first. */
  public long write(Record... records) {
    WriteResult result = logStream.writer().tryWrite(List.of(records));
    if (!(result instanceof WriteResult.Written written)) {
      throw new AssertionError("Expected the log to take the records, but it answered " + result);
    }
    return written.lowestPosition();
  }

  /** The request id of the last command written by {@link #writeCommand}. */
  public long lastRequestId() {
    return nextRequestId - 1;
  }

  // ---- driving ----------------------------------------------------------------------------------

  /** Runs every task due now (processing, commits, responses); time does not move. */
  public StreamProcessorTestKit runUntilIdle() {
    scheduler.runUntilIdle();
    return this;
  }

  /** Runs tasks in order for {@code duration} of simulated time (timers fire). */
  public StreamProcessorTestKit run(Duration duration) {
    scheduler.runFor(duration);
    return this;
  }

  // ---- reading ----------------------------------------------------------------------------------

  /** Every committed record, in position order. */
  public List<Record> committedRecords() {
    return logStream.committedRecords();
  }

  /** The committed records caused by the command at {@code sourcePosition}, in position order. */
  public List<Record> followUps(long sourcePosition) {
    return committedRecords().stream()
        .filter(r -> r.metadata().sourcePosition() == sourcePosition)
        .toList();
  }

  /** Committed records of one type, in position order. */
  public List<Record> committedRecords(RecordType type) {
    return committedRecords().stream().filter(r -> r.metadata().recordType() == type).toList();
  }

  /** The responses the leader replica sent, in order. */
  public List<Response> responses() {
    return leader.responses();
  }

  /** The leader replica's response to {@code requestId}, if sent. */
  public Optional<Response> responseTo(long requestId) {
    return leader.responses().stream().filter(r -> r.requestId() == requestId).findFirst();
  }

  // ---- access -----------------------------------------------------------------------------------

  public InMemoryLogStream logStream() {
    return logStream;
  }

  public DeterministicScheduler scheduler() {
    return scheduler;
  }

  public SimClock clock() {
    return clock;
  }

  /** The leader replica's database (open while the replica's state is). */
  public CairnDb db() {
    return leader.db();
  }

  /** The leader replica's processor. */
  public StreamProcessor processor() {
    return leader.processor();
  }

  @Override
  public void close() {
    replicas.values().forEach(Replica::stop);
    scheduler.close();
    scheduler.runUntilIdle();
    replicas.values().forEach(Replica::closeState);
    logStream.close();
  }

  /** One copy of the partition's state with its stream processor. */
  public final class Replica {
    private final String name;
    private final Path stateDirectory;
    private final ProcessorsSetup replicaSetup;
    private final List<Response> responses = new ArrayList<>();
    private SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private CairnDb db;
    private StreamProcessor processor;

    private Replica(String name, Path stateDirectory, ProcessorsSetup replicaSetup) {
      this.name = name;
      this.stateDirectory = stateDirectory;
      this.replicaSetup = replicaSetup;
    }

    public String name() {
      return name;
    }

    /**
     * Opens the state (if closed), starts a stream processor in {@code mode} over it and runs until
     * idle.
     *
     * @throws IllegalStateException if a processor of this replica runs
     */
    public StreamProcessor start(StreamProcessorMode mode) {
      if (processor != null) {
        throw new IllegalStateException(
            "Expected replica " + name + " to have no running processor, but it has one");
      }
      CairnDb state = openState();
      RecordProcessors.Builder registrations = RecordProcessors.builder();
      replicaSetup.register(state, registrations);
      registry = new SimpleMeterRegistry();
      processor =
          StreamProcessor.builder()
              .logStream(logStream)
              .db(state)
              .processors(registrations.build())
              .responseWriter(
                  (streamId, requestId, record) ->
                      responses.add(new Response(streamId, requestId, record)))
              .mode(mode)
              .config(processorConfig)
              .meterRegistry(registry)
              .nodeId(nodeId)
              .build();
      scheduler.start(processor);
      scheduler.runUntilIdle();
      return processor;
    }

    /** Closes the processor (if running) and runs until idle; the state stays open. */
    public void stop() {
      if (processor != null) {
        processor.closeAsync();
        scheduler.runUntilIdle();
        processor = null;
      }
    }

    /** Stops the processor and closes the state; {@link #start} opens it again from disk. */
    public void closeState() {
      stop();
      if (db != null) {
        db.close();
        db = null;
      }
    }

    /** {@link #closeState()} and {@link #start} in {@code mode}: a restart of the member. */
    public StreamProcessor restart(StreamProcessorMode mode) {
      closeState();
      return start(mode);
    }

    /** Closes the state and deletes it: the next start begins from an empty state. */
    public void discardState() {
      closeState();
      deleteRecursively(stateDirectory);
    }

    /** The open database; opens it if closed. */
    public CairnDb db() {
      return openState();
    }

    public StreamProcessor processor() {
      return processor;
    }

    /** The meters of the current (or last) processor. */
    public SimpleMeterRegistry registry() {
      return registry;
    }

    public List<Response> responses() {
      return responses;
    }

    /** The digest of the replica's state. */
    public StateDigest stateDigest() {
      return openState().stateDigest();
    }

    private CairnDb openState() {
      if (db == null) {
        List<ColumnFamilyDefinition> all = new ArrayList<>(families);
        all.addAll(StreamProcessorColumnFamily.all());
        db = CairnDb.open(stateDirectory, DbConfig.defaults(), all, new SimpleMeterRegistry());
      }
      return db;
    }
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Collects the kit's settings. */
  public static final class Builder {
    private Path directory;
    private List<ColumnFamilyDefinition> families = List.of();
    private ProcessorsSetup setup = (db, builder) -> {};
    private LogStreamConfig logStreamConfig = LogStreamConfig.defaults();
    private StreamProcessorConfig processorConfig = StreamProcessorConfig.defaults();
    private long startMillis = 1_000_000L;
    private int nodeId;

    private Builder() {}

    /** The node the replicas' processors say they run on (logging context); 0 by default. */
    public Builder nodeId(int value) {
      nodeId = value;
      return this;
    }

    /** Where the replicas' databases live (a test's temporary directory). Required. */
    public Builder directory(Path value) {
      directory = value;
      return this;
    }

    /** The state's column families (the stream processor's are added). */
    public Builder families(List<? extends ColumnFamilyDefinition> value) {
      families = List.copyOf(value);
      return this;
    }

    /** How each replica registers its processors over its database. */
    public Builder processors(ProcessorsSetup value) {
      setup = Objects.requireNonNull(value, "setup");
      return this;
    }

    public Builder logStreamConfig(LogStreamConfig value) {
      logStreamConfig = value;
      return this;
    }

    public Builder processorConfig(StreamProcessorConfig value) {
      processorConfig = value;
      return this;
    }

    /** The simulated clock's start, in epoch milliseconds. */
    public Builder startMillis(long value) {
      startMillis = value;
      return this;
    }

    public StreamProcessorTestKit build() {
      Objects.requireNonNull(directory, "directory");
      return new StreamProcessorTestKit(this);
    }
  }
}
