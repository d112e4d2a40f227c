package io.cairn.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.raft.storage.FileRaftMetaStore;
import io.cairn.raft.storage.RaftMeta;
import io.cairn.raft.storage.RaftMetaDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRaftMetaStoreTest {

  @TempDir Path directory;

  @Test
  void shouldLoadInitialMetaWhenFileIsMissing() {
    FileRaftMetaStore store = new FileRaftMetaStore(directory.resolve("raft.meta"));

    assertThat(store.load()).isEqualTo(RaftMeta.INITIAL);
  }

  @Test
  void shouldLoadWhatWasStoredAfterReopen() {
    Path file = directory.resolve("raft.meta");
    new FileRaftMetaStore(file).store(new RaftMeta(5, 2));
    FileRaftMetaStore store = new FileRaftMetaStore(file);
    store.store(new RaftMeta(6, -1));

    assertThat(new FileRaftMetaStore(file).load()).isEqualTo(new RaftMeta(6, -1));
    assertThat(Files.exists(directory.resolve("raft.meta.tmp"))).isFalse();
  }

  @Test
  void shouldFailLoudlyOnFlippedByte() throws IOException {
    Path file = directory.resolve("raft.meta");
    new FileRaftMetaStore(file).store(new RaftMeta(9, 1));
    byte[] bytes = Files.readAllBytes(file);
    bytes[RaftMetaDescriptor.TERM_OFFSET] ^= 0x01;
    Files.write(file, bytes);

    assertThatThrownBy(() -> new FileRaftMetaStore(file).load())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Expected raft meta checksum")
        .hasMessageContaining(file.toString());
  }

  @Test
  void shouldFailLoudlyOnTruncatedFile() throws IOException {
    Path file = directory.resolve("raft.meta");
    new FileRaftMetaStore(file).store(new RaftMeta(9, 1));
    Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(file), 10));

    assertThatThrownBy(() -> new FileRaftMetaStore(file).load())
        .hasMessageContaining("Expected raft meta file of 24 bytes, but was 10 bytes");
  }

  @Test
  void shouldIgnoreUnfinishedTemporaryFile() throws IOException {
    Path file = directory.resolve("raft.meta");
    new FileRaftMetaStore(file).store(new RaftMeta(3, 0));
    Files.write(directory.resolve("raft.meta.tmp"), new byte[] {1, 2, 3});

    assertThat(new FileRaftMetaStore(file).load()).isEqualTo(new RaftMeta(3, 0));
    assertThat(Files.exists(directory.resolve("raft.meta.tmp"))).isFalse();
  }
}
