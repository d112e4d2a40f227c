package io.cairn.cli.restore;

import io.cairn.backup.restore.DigestCheck;
import io.cairn.backup.restore.FamilyState;
import io.cairn.backupapi.FileProblem;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.output.Table;
import io.cairn.restore.PartitionRestoreResult;
import io.cairn.restore.PartitionVerification;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.SkippedPartition;
import io.cairn.restore.VerifyReport;
import io.cairn.units.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tables and JSON documents of restores and verifications. */
public final class RestoreReports {
  private RestoreReports() {}

  // ---- restore --------------------------------------------------------------------------------

  /** 0 when every partition was restored, 1 when a partial restore skipped some. */
  public static int exitCode(List<RestoreResult> results) {
    return results.stream().allMatch(RestoreResult::isComplete) ? ExitCode.OK : ExitCode.FAILED;
  }

  /**
   * {@code {"backupId", "durationMs", "totalBytes", "complete", "nodes": [{"nodeId",
   * "dataDirectory", "durationMs", "partitions": [...], "skipped": [{"partitionId", "kind", "file",
   * "reason"}]}]}}.
   */
  public static Map<String, Object> restoreDocument(List<RestoreResult> results, Duration took) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("backupId", results.isEmpty() ? null : results.get(0).backupId());
    doc.put("restorePoint", results.isEmpty() ? null : results.get(0).restorePoint().orElse(null));
    doc.put("durationMs", took.toMillis());
    doc.put("totalBytes", results.stream().mapToLong(RestoreResult::totalBytes).sum());
    doc.put("complete", results.stream().allMatch(RestoreResult::isComplete));
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (RestoreResult result : results) {
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("nodeId", result.nodeId());
      node.put("dataDirectory", result.dataDirectory().toString());
      node.put("durationMs", result.duration().toMillis());
      node.put("totalBytes", result.totalBytes());
      node.put("partitions", result.partitions().stream().map(RestoreReports::partition).toList());
      node.put("skipped", result.skipped().stream().map(RestoreReports::skipped).toList());
      nodes.add(node);
    }
    doc.put("nodes", nodes);
    return doc;
  }

  private static Map<String, Object> partition(PartitionRestoreResult p) {
    Map<String, Object> partition = new LinkedHashMap<>();
    partition.put("partitionId", p.partitionId());
    partition.put("sourceNodeId", p.source().nodeId());
    partition.put("checkpointPosition", p.checkpointPosition());
    partition.put("snapshotId", p.snapshotId().orElse(null));
    partition.put("fileCount", p.fileCount());
    partition.put("sizeBytes", p.sizeBytes());
    partition.put("firstIndex", p.firstIndex());
    partition.put("lastIndex", p.lastIndex());
    partition.put("droppedRecords", p.droppedRecords());
    return partition;
  }

  private static Map<String, Object> skipped(SkippedPartition s) {
    Map<String, Object> partition = new LinkedHashMap<>();
    partition.put("partitionId", s.partitionId());
    partition.put("kind", s.problem().kind().name());
    partition.put("problem", s.problem().name());
    partition.put("file", s.file().orElse(null));
    partition.put("reason", s.reason());
    return partition;
  }

  /**
   * A summary line and one row per restored partition of every node; then the skipped partitions of
   * a partial restore, each with its reason.
   */
  public static void printRestore(List<RestoreResult> results, Duration took, PrintStream out) {
    long bytes = results.stream().mapToLong(RestoreResult::totalBytes).sum();
    int partitions = results.stream().mapToInt(r -> r.partitions().size()).sum();
    out.println(
        "Restored backup "
            + (results.isEmpty() ? "-" : results.get(0).backupId())
            + (results.isEmpty() || results.get(0).restorePoint().isEmpty()
                ? ""
                : " continued from the log archive to restore point "
                    + results.get(0).restorePoint().get())
            + " into "
            + (results.size() == 1
                ? results.get(0).dataDirectory() + " (node " + results.get(0).nodeId() + ")"
                : results.size() + " nodes")
            + ": "
            + partitions
            + " partitions, "
            + Formats.bytes(bytes)
            + " in "
            + Durations.formatRounded(took)
            + ".");
    out.println();
    Table table =
        Table.of(
            "node",
            "partition",
            "from node",
            "checkpoint position",
            "snapshot",
            "files",
            "size",
            "log indexes",
            "dropped records");
    for (RestoreResult result : results) {
      for (PartitionRestoreResult p : result.partitions()) {
        table.row(
            result.nodeId(),
            p.partitionId(),
            p.source().nodeId(),
            p.checkpointPosition(),
            p.snapshotId().orElse("-"),
            p.fileCount(),
            Formats.bytes(p.sizeBytes()),
            p.firstIndex() + ".." + p.lastIndex(),
            p.droppedRecords());
      }
    }
    table.print(out);
    out.println();
    long skipped = results.stream().mapToLong(r -> r.skipped().size()).sum();
    if (skipped > 0) {
      out.println(
          "SKIPPED "
              + skipped
              + " partitions (no copy verified; they start without data:"
              + " from their other replicas if one holds it, else empty):");
      Table skippedTable = Table.of("node", "partition", "problem", "file");
      for (RestoreResult result : results) {
        for (SkippedPartition s : result.skipped()) {
          skippedTable.row(result.nodeId(), s.partitionId(), s.problem(), s.file().orElse("-"));
        }
      }
      skippedTable.print(out);
      for (RestoreResult result : results) {
        for (SkippedPartition s : result.skipped()) {
          out.println(
              "node " + result.nodeId() + " partition " + s.partitionId() + ": " + s.reason());
        }
      }
      out.println();
    }
    out.println("Start the brokers on these directories; each ends its log at the checkpoint.");
  }

  // ---- verify ---------------------------------------------------------------------------------

  /**
   * {@code {"backupId", "partitionCount", "quick", "clean", "partitions": [{"partitionId",
   * "sourceNodeId", "filesChecked", "bytesChecked", "checksums" (OK|MISMATCH), "fileProblems",
   * "expectedDigest", "actualDigest", "digest" (OK|MISMATCH|NOT_CHECKED), "families", "problem",
   * "failure", "clean"}]}}.
   */
  public static Map<String, Object> verifyDocument(VerifyReport report) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("backupId", report.backupId());
    doc.put("restorePoint", report.restorePoint().orElse(null));
    doc.put("partitionCount", report.partitionCount());
    doc.put("quick", report.quick());
    doc.put("clean", report.isClean());
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (PartitionVerification p : report.partitions()) {
      Map<String, Object> partition = new LinkedHashMap<>();
      partition.put("partitionId", p.partitionId());
      partition.put("sourceNodeId", p.source().nodeId());
      partition.put("filesChecked", p.filesChecked());
      partition.put("bytesChecked", p.bytesChecked());
      partition.put("checksums", p.checksumsMatch() ? "OK" : "MISMATCH");
      partition.put("fileProblems", p.fileProblems().stream().map(FileProblem::describe).toList());
      partition.put("expectedDigest", p.expectedDigest());
      partition.put("actualDigest", p.actualDigest().orElse(null));
      partition.put("digest", digestResult(report.quick(), p));
      partition.put(
          "families",
          p.digest().map(DigestCheck::families).orElse(List.of()).stream()
              .map(RestoreReports::family)
              .toList());
      partition.put("problem", p.digest().flatMap(DigestCheck::problem).orElse(null));
      partition.put("failure", p.failure().orElse(null));
      partition.put("clean", p.isClean(report.quick()));
      partitions.add(partition);
    }
    doc.put("partitions", partitions);
    return doc;
  }

  private static Map<String, Object> family(FamilyState family) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("family", family.family());
    doc.put("entries", family.entries());
    doc.put("digest", family.digestHex());
    return doc;
  }

  private static String digestResult(boolean quick, PartitionVerification p) {
    if (quick) {
      return "NOT_CHECKED";
    }
    return p.digest().map(d -> d.matches() ? "OK" : "MISMATCH").orElse("NOT_CHECKED");
  }

  /** One row per partition, what is wrong below the table, then the verdict. */
  public static void printVerify(VerifyReport report, PrintStream out) {
    out.println(
        "Backup "
            + report.backupId()
            + report
                .restorePoint()
                .map(id -> " continued from the log archive to restore point " + id)
                .orElse("")
            + ": "
            + report.partitionCount()
            + " partitions, "
            + (report.quick()
                ? "files checked (--quick: no state rebuild)"
                : "files checked and every partition's state rebuilt"));
    out.println();
    Table table =
        report.quick()
            ? Table.of("partition", "from node", "files", "size", "checksums", "result")
            : Table.of(
                "partition",
                "from node",
                "files",
                "size",
                "checksums",
                "expected digest",
                "actual digest",
                "digest",
                "result");
    for (PartitionVerification p : report.partitions()) {
      String result = p.isClean(report.quick()) ? "clean" : "NOT CLEAN";
      String checksums = p.checksumsMatch() ? "OK" : "MISMATCH";
      if (report.quick()) {
        table.row(
            p.partitionId(),
            p.source().nodeId(),
            p.filesChecked(),
            Formats.bytes(p.bytesChecked()),
            checksums,
            result);
      } else {
        table.row(
            p.partitionId(),
            p.source().nodeId(),
            p.filesChecked(),
            Formats.bytes(p.bytesChecked()),
            checksums,
            p.expectedDigest(),
            p.actualDigest().orElse("-"),
            digestResult(false, p),
            result);
      }
    }
    table.print(out);
    for (PartitionVerification p : report.partitions()) {
      for (FileProblem problem : p.fileProblems()) {
        out.println("partition " + p.partitionId() + ": " + problem.describe());
      }
      p.digest()
          .filter(d -> !d.matches())
          .ifPresent(d -> out.println("partition " + p.partitionId() + ": " + d.describe()));
      p.failure().ifPresent(f -> out.println("partition " + p.partitionId() + ": " + f));
    }
    out.println();
    out.println(verdict(report));
  }

  /** The final line: CLEAN, or NOT CLEAN with how many partitions and what to do. */
  public static String verdict(VerifyReport report) {
    long bad = report.partitions().stream().filter(p -> !p.isClean(report.quick())).count();
    if (bad == 0) {
      return "Verdict: CLEAN — every file"
          + (report.quick()
              ? "'s size and checksum match (state not rebuilt)."
              : " matches and every partition's rebuilt state has the recorded digest.");
    }
    return "Verdict: NOT CLEAN — "
        + bad
        + " of "
        + report.partitions().size()
        + " partitions do not match. Restore another backup or take a new one; a partial restore"
        + " would lose the partitions above.";
  }
}
