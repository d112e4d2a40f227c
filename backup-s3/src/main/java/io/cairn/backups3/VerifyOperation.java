package io.cairn.backups3;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.ContentProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every stored object of a COMPLETED backup against its manifest, several files at once,
 * without restoring it (the downloads count against the bytes/s limit). Lists every problem; a
 * store that cannot be reached fails the verification instead of reporting files as bad.
 */
final class VerifyOperation {

  private static final Logger LOG = LoggerFactory.getLogger(VerifyOperation.class);

  private final S3BackupStore store;
  private final BackupIdentifier id;

  VerifyOperation(S3BackupStore store, BackupIdentifier id) {
    this.store = store;
    this.id = id;
  }

  VerificationReport run() throws Exception {
    Manifest manifest = store.readCompleted(id);
    BackupDescriptor descriptor = manifest.descriptor().orElseThrow();
    var tasks = new FileTasks(store.transferExecutor());
    List<FileTasks.Task<Optional<FileProblem>>> work = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      for (ManifestFile entry : manifest.files(kind)) {
        String key = store.layout().objectKey(id, kind, entry.name());
        work.add(() -> store.checker().check(kind, entry, key, null, bytes -> {}, true));
      }
    }
    List<FileProblem> problems = tasks.runAll(work).stream().flatMap(Optional::stream).toList();
    return ContentProblems.report(manifest, work.size(), problems);
  }
}
