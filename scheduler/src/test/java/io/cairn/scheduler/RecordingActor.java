package io.cairn.scheduler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An actor that records its life cycle and exposes its clock to tests. */
class RecordingActor extends Actor {

  final List<String> events = new CopyOnWriteArrayList<>();
  private RuntimeException failOnStart;

  RecordingActor(String name) {
    super(name);
  }

  RecordingActor(String name, int mailboxCapacity) {
    super(name, mailboxCapacity);
  }

  RecordingActor failingOnStart(RuntimeException failure) {
    this.failOnStart = failure;
    return this;
  }

  @Override
  protected void onStart() {
    events.add("start");
    if (failOnStart != null) {
      throw failOnStart;
    }
  }

  @Override
  protected void onClose() {
    events.add("close");
  }

  Clock actorClock() {
    return clock();
  }
}
