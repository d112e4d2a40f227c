package io.cairn.raft;

import io.cairn.raft.storage.RaftMeta;
import io.cairn.raft.storage.RaftMetaStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Keeps the meta in memory ("disk" survives a node restart when the same store is reused). */
final class InMemoryMetaStore implements RaftMetaStore {

  private RaftMeta meta = RaftMeta.INITIAL;
  private final List<RaftMeta> history = new ArrayList<>();
  private Consumer<RaftMeta> onStore = m -> {};

  @Override
  public RaftMeta load() {
    return meta;
  }

  @Override
  public void store(RaftMeta value) {
    onStore.accept(value);
    meta = value;
    history.add(value);
  }

  @Override
  public void close() {}

  RaftMeta meta() {
    return meta;
  }

  List<RaftMeta> history() {
    return history;
  }

  void onStore(Consumer<RaftMeta> listener) {
    onStore = listener;
  }
}
