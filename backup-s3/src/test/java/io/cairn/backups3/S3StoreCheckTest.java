package io.cairn.backups3;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backups3.S3StoreCheck.Check;
import io.cairn.backups3.S3StoreCheck.Outcome;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backups3.testserver.RawObjects;
import io.cairn.scheduler.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store check against both servers (every check passes, nothing left behind), against a server
 * that stores aws-chunked bodies as objects (the first check fails naming {@code legacyMd5}, and
 * passes with it), one that fails the second page of a listing (reported as that), one that stores
 * uploads whatever their checksum (worked around, and said so), and one without DeleteObjects.
 */
@ExtendWith(LocalS3Servers.class)
class S3StoreCheckTest {

  private static final String BUCKET = "cairn-check";

  @ParameterizedTest
  @EnumSource(Kind.class)
  void passesEveryCheckAndLeavesNothing(Kind kind) {
    LocalS3Servers.Running server = LocalS3Servers.get(kind);
    server.createBucket(BUCKET);

    S3StoreCheck.Report report =
        S3StoreCheck.run(server.config(BUCKET, "checked").build(), Clock.system());

    assertThat(report.checks())
        .extracting(Check::name)
        .containsExactly(
            "write and read back",
            "overwrite",
            "multipart upload, ranged read",
            "conditional writes",
            "listing across pages",
            "delete",
            "batch delete",
            "upload checksums",
            "concurrent writers");
    assertThat(report.checks())
        .allSatisfy(check -> assertThat(check.outcome()).as("%s", check).isEqualTo(Outcome.PASS));
    assertThat(report.safe()).isTrue();
    assertThat(new RawObjects(server.client(), BUCKET).keys("checked/")).isEmpty();
  }

  @Test
  void namesLegacyMd5ForAServerThatStoresChunkedBodies() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    server.createBucket(BUCKET);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .stripRequestHeaders(
                Set.of(
                    "content-encoding",
                    "x-amz-decoded-content-length",
                    "x-amz-content-sha256",
                    "x-amz-trailer"))) {
      var config = server.config(BUCKET, "chunked").endpoint(proxy.endpoint());

      S3StoreCheck.Report report = S3StoreCheck.run(config.build(), Clock.system());
      assertThat(report.safe()).isFalse();
      assertThat(report.checks())
          .singleElement()
          .satisfies(
              check -> {
                assertThat(check.outcome()).isEqualTo(Outcome.FAIL);
                assertThat(check.detail()).contains("aws-chunked");
                assertThat(check.fix()).isEqualTo("legacyMd5: true");
              });

      assertThat(S3StoreCheck.run(config.legacyMd5(true).build(), Clock.system()).safe()).isTrue();
    }
  }

  @Test
  void reportsAServerThatStoresAnUploadWhoseChecksumDoesNotMatch() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    server.createBucket(BUCKET);
    // A server that ignores checksums: the proxy drops them before it sees them.
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .stripRequestHeaders(Set.of("x-amz-checksum-crc32", "content-md5"))) {
      for (boolean legacyMd5 : new boolean[] {false, true}) {
        S3StoreCheck.Report report =
            S3StoreCheck.run(
                server
                    .config(BUCKET, "unchecked")
                    .endpoint(proxy.endpoint())
                    .legacyMd5(legacyMd5)
                    .build(),
                Clock.system());

        assertThat(report.checks())
            .filteredOn(check -> check.name().equals("upload checksums"))
            .singleElement()
            .satisfies(
                check -> {
                  assertThat(check.outcome()).isEqualTo(Outcome.WORKED_AROUND);
                  assertThat(check.detail())
                      .contains(legacyMd5 ? "Content-MD5" : "x-amz-checksum-crc32")
                      .contains("does not check uploads")
                      .contains("cairn backup verify");
                });
        assertThat(report.safe()).as("legacyMd5 %s", legacyMd5).isTrue();
      }
    }
  }

  @Test
  void failsAServerWithoutBatchDelete() throws Exception {
    Check failed =
        onlyFailedCheck(
            request -> request.query().startsWith("delete"),
            new FaultInjectingProxy.Refusal(
                501, "NotImplemented", "DeleteObjects is not implemented"));

    assertThat(failed.name()).isEqualTo("batch delete");
    assertThat(failed.detail()).contains("501").contains("NotImplemented");
  }

  @Test
  void reportsAFailedSecondListingPageAsSuch() throws Exception {
    Check failed =
        onlyFailedCheck(
            request -> request.query().contains("continuation-token"),
            new FaultInjectingProxy.Refusal(500, "InternalError", "page two"));

    assertThat(failed.name()).isEqualTo("listing across pages");
    assertThat(failed.detail())
        .contains("the server failed page 2 of a listing (after a continuation token)")
        .contains("500");
    assertThat(failed.fix()).isEmpty();
  }

  /**
   * Runs the check against S3Mock behind a proxy that answers {@code refusal} to the requests
   * {@code refused} picks; the report must be unsafe with exactly one failed check, returned.
   */
  private static Check onlyFailedCheck(
      Predicate<FaultInjectingProxy.Request> refused, FaultInjectingProxy.Refusal refusal)
      throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3MOCK);
    server.createBucket(BUCKET);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .refuse(r -> refused.test(r) ? Optional.of(refusal) : Optional.empty())) {
      S3StoreCheck.Report report =
          S3StoreCheck.run(
              server.config(BUCKET, "refused").endpoint(proxy.endpoint()).build(), Clock.system());

      assertThat(report.safe()).isFalse();
      List<Check> failed =
          report.checks().stream().filter(check -> check.outcome() == Outcome.FAIL).toList();
      assertThat(failed).as("failed checks").hasSize(1);
      return failed.get(0);
    }
  }
}
