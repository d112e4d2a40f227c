package io.cairn.exporter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A controller for exporter tests: acknowledged positions are kept in a list, scheduled tasks run
 * when the test says so ({@link #runScheduledTasks()}), nothing runs on its own.
 */
public final class InMemoryExporterController implements ExporterController {

  public final List<Long> acknowledged = new ArrayList<>();
  private final List<Task> tasks = new ArrayList<>();
  private long position;

  public InMemoryExporterController(long position) {
    this.position = position;
  }

  @Override
  public void updateLastExportedPosition(long newPosition) {
    if (newPosition > position) {
      position = newPosition;
      acknowledged.add(newPosition);
    }
  }

  @Override
  public long lastExportedPosition() {
    return position;
  }

  @Override
  public ScheduledTask scheduleTask(Duration delay, Runnable task) {
    Task scheduled = new Task(task);
    tasks.add(scheduled);
    return () -> scheduled.cancelled = true;
  }

  /** Runs every task scheduled so far that is not cancelled (tasks they schedule wait). */
  public int runScheduledTasks() {
    List<Task> due = new ArrayList<>(tasks);
    tasks.clear();
    int ran = 0;
    for (Task task : due) {
      if (!task.cancelled) {
        task.runnable.run();
        ran++;
      }
    }
    return ran;
  }

  private static final class Task {
    final Runnable runnable;
    boolean cancelled;

    Task(Runnable runnable) {
      this.runnable = runnable;
    }
  }
}
