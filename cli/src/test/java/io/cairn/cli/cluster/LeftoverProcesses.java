package io.cairn.cli.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Kills what a process test left running under its directory (only if it failed half-way). */
final class LeftoverProcesses {
  private LeftoverProcesses() {}

  /** SIGKILL to every cairn process of {@code root} named by a pid file or in {@code known}. */
  static void kill(Path root, List<Long> known) throws Exception {
    List<Long> pids = new ArrayList<>(known);
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(file -> file.toString().endsWith(".pid"))
          .forEach(
              file -> {
                try {
                  pids.add(Long.parseLong(Files.readString(file).trim()));
                } catch (Exception e) {
                  // unreadable: nothing to kill
                }
              });
    }
    for (long pid : pids) {
      ProcessHandle.of(pid)
          .filter(h -> ProcessLauncher.isCairnProcess(h, root.toString()))
          .ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
