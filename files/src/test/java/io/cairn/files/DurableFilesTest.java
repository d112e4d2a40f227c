package io.cairn.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {

  @TempDir Path directory;

  @Test
  void shouldReplaceAFileAtomicallyAndLeaveNoTemporaryFile() throws IOException {
    Path file = directory.resolve("manifest.json");
    DurableFiles.writeAtomically(file, bytes("old"));

    DurableFiles.writeAtomically(file, bytes("new"));

    assertThat(file).hasContent("new");
    assertThat(DurableFiles.list(directory)).containsExactly(file);
  }

  @Test
  void shouldWriteANewFileButNeverOverwriteOne() throws IOException {
    Path file = directory.resolve("checksums");

    DurableFiles.writeNew(file, bytes("a"));

    assertThat(file).hasContent("a");
    assertThatThrownBy(() -> DurableFiles.writeNew(file, bytes("b")))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(file).hasContent("a");
  }

  @Test
  void shouldDeleteATreeButNotWhatALinkInItPointsTo() throws IOException {
    Path outside = Files.createDirectories(directory.resolve("outside"));
    Files.writeString(outside.resolve("keep"), "kept");
    Path tree = Files.createDirectories(directory.resolve("tree/a/b"));
    Files.writeString(tree.resolve("file"), "x");
    Files.createSymbolicLink(directory.resolve("tree/link"), outside);

    // the file and the link (a link is a file to delete, never a directory to enter)
    assertThat(DurableFiles.deleteRecursively(directory.resolve("tree"))).isEqualTo(2);
    assertThat(DurableFiles.deleteRecursively(directory.resolve("tree"))).isZero(); // missing: fine

    assertThat(directory.resolve("tree")).doesNotExist();
    assertThat(outside.resolve("keep")).hasContent("kept");
  }

  @Test
  void shouldEmptyADirectoryAndKeepIt() throws IOException {
    Files.createDirectories(directory.resolve("data/runtime"));
    Files.writeString(directory.resolve("data/meta"), "m");

    DurableFiles.deleteContents(directory.resolve("data"));

    assertThat(directory.resolve("data")).isEmptyDirectory();
    assertThat(DurableFiles.isMissingOrEmpty(directory.resolve("data"))).isTrue();
    assertThat(DurableFiles.isMissingOrEmpty(directory.resolve("none"))).isTrue();
    assertThat(DurableFiles.isMissingOrEmpty(directory)).isFalse();
  }

  @Test
  void shouldDeleteEmptyParentsUpToTheStopButNoNonEmptyOne() throws IOException {
    Path stop = directory.resolve("store");
    Path leaf = Files.createDirectories(stop.resolve("cluster/1/2"));
    Files.writeString(stop.resolve("cluster/other"), "o");

    DurableFiles.deleteEmptyDirectories(leaf, stop);

    assertThat(stop.resolve("cluster/1")).doesNotExist();
    assertThat(stop.resolve("cluster")).exists();
    assertThat(stop).exists();
  }

  @Test
  void shouldListEntriesSortedByName() throws IOException {
    for (String name : new String[] {"c", "a", "b"}) {
      Files.writeString(directory.resolve(name), name);
    }

    assertThat(DurableFiles.someEntries(directory, 2)).containsExactly("a", "b");
    assertThat(DurableFiles.isRegularFile(directory.resolve("a"))).isTrue();
    assertThat(DurableFiles.isRegularFile(directory)).isFalse();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
