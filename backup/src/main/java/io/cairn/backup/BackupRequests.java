package io.cairn.backup;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leader's checkpoint listener in front of its {@link BackupManager}: a checkpoint asked for as
 * a backup is backed up, a marker is not, and one the partition took through a stamp — before the
 * {@code CREATE} or {@code MARK} that asked for it arrived — is reserved at once and uploaded only
 * once that request says it is a backup ({@link #onCheckpointRequested}). If none arrives within
 * {@link #STAMPED_GRACE}, it is backed up: better an unneeded copy than a missing one.
 */
public final class BackupRequests implements CheckpointListener {

  /** How long a stamped checkpoint waits for what asked for it. */
  public static final Duration STAMPED_GRACE = Duration.ofSeconds(10);

  private final BackupManager manager;
  private final Duration grace;
  private final Map<Long, CompletableFuture<Boolean>> undecided = new ConcurrentHashMap<>();

  public BackupRequests(BackupManager manager, Duration grace) {
    this.manager = Objects.requireNonNull(manager, "manager");
    this.grace = Objects.requireNonNull(grace, "grace");
  }

  @Override
  public void onCheckpointCreated(Checkpoint checkpoint) {
    manager.takeBackup(checkpoint);
  }

  @Override
  public void onCheckpointTaken(Checkpoint checkpoint, CheckpointOrigin origin) {
    switch (origin) {
      case BACKUP -> manager.takeBackup(checkpoint);
      case MARKER -> {
        // a restore point of the log archive only
      }
      case STAMPED -> {
        CompletableFuture<Boolean> decision = new CompletableFuture<>();
        if (undecided.putIfAbsent(checkpoint.id(), decision) == null) {
          manager.takeBackup(checkpoint, decision);
          manager.schedule(grace, () -> decide(checkpoint.id(), true));
        }
      }
    }
  }

  @Override
  public void onCheckpointRequested(long checkpointId, CheckpointOrigin origin) {
    decide(checkpointId, origin == CheckpointOrigin.BACKUP);
  }

  private void decide(long checkpointId, boolean backup) {
    CompletableFuture<Boolean> decision = undecided.remove(checkpointId);
    if (decision != null) {
      decision.complete(backup);
    }
  }
}
