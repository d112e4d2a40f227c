package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cairn.client.BackupInfo;
import io.cairn.client.CairnClient;
import io.cairn.client.RestorePoint;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser (Debian's headless {@code chromium} driven through {@code
 * chromium-driver}) against a secured embedded cluster (TLS, API keys) under transfer load: it asks
 * for credentials after the gateway's 401, then shows the brokers, partitions and leaders the
 * cluster has, live throughput, the schedule with its markers, and the backups; a backup is taken
 * and another deleted through the console (each after its confirmation; a cancelled one changes
 * nothing), a refused one shows the gateway's reason. A second cluster started empty in restore
 * mode is restored from the console and ends with every partition VERIFIED and money conserved. The
 * browser's console must log no script error or blocked resource. A screenshot of each page goes to
 * {@code target/console-screenshots/}.
 *
 * <p>Skipped, saying how to install them, when {@code /usr/bin/chromium} or {@code
 * /usr/bin/chromedriver} is missing ({@code .ci/run} installs both).
 */
final class ConsoleBrowserIT {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path directory;

  @Test
  void shouldShowTheClusterAndTakeDeleteAndRestoreBackups() throws Exception {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "the console test needs Debian's chromium and chromium-driver:"
            + " apt-get install -y chromium chromium-driver (.ci/run installs them)");
    Files.createDirectories(SCREENSHOTS);
    long seed = Seeds.seed("ConsoleBrowserIT");
    Phases phases = new Phases("ConsoleBrowserIT");
    SecuritySpec security = SecuritySpec.local(directory.resolve("security"), Instant.now());
    String credentials = "ApiKey " + security.adminApiKey();
    Path store = Files.createDirectories(directory.resolve("backups"));
    ChromeDriver browser = browser();
    try {
      List<String> accounts;
      long deposited;
      long kept;
      try (EmbeddedCluster source = cluster(directory.resolve("source"), store, security, false)) {
        source.start().awaitHealthy();
        CairnClient client = source.client();
        accounts = LedgerOracle.accounts(source, "console", 4);
        deposited = LedgerOracle.fund(client, accounts, 10_000).total();
        TransferLoad load = new TransferLoad(client, accounts, seed, 2, 20);
        load.start();
        try {
          URI base = base(source);
          signIn(browser, base, credentials, "01-credentials");
          overview(browser, source);
          phases.mark("overview");
          kept = backups(browser, client);
          phases.mark("backups taken and deleted");
          restorePoints(browser, client);
          phases.mark("restore points");
          leave(browser);
        } finally {
          load.stop(TIMEOUT);
        }
      }

      try (EmbeddedCluster target = cluster(directory.resolve("restored"), store, security, true)) {
        target.start();
        signIn(browser, base(target), credentials, "05-restore-credentials");
        restore(browser, kept);
        leave(browser);
        target.awaitHealthy();
        LedgerOracle.awaitTotal(
            target.client(), accounts, deposited, "the restored balances", TIMEOUT);
        phases.mark("restored from the console");
      }
      assertNoScriptErrors(browser);
    } finally {
      browser.quit();
    }
  }

  /** Opens the gateway's root: the console comes, asks for credentials, and shows the 401. */
  private void signIn(ChromeDriver browser, URI base, String credentials, String screenshot)
      throws Exception {
    browser.get(base.resolve("/").toString());
    assertThat(browser.getCurrentUrl()).isEqualTo(base.resolve("/console/").toString());
    until(browser, "the credentials dialog", b -> dialogOpen(b, "credentials"));
    assertThat(text(browser, "credentials-reason")).contains("401");
    assertThat(text(browser, "error-text")).contains("401");
    screenshot(browser, screenshot);
    browser.findElement(By.id("credentials-value")).sendKeys(credentials);
    browser.findElement(By.id("credentials-save")).click();
    until(browser, "the page loaded with credentials", b -> !dialogOpen(b, "credentials"));
  }

  private void overview(ChromeDriver browser, EmbeddedCluster cluster) throws Exception {
    until(browser, "the overview", b -> "overview".equals(loaded(b)));
    until(
        browser,
        "every partition with its leader",
        b -> {
          List<WebElement> rows = b.findElements(By.cssSelector("#partitions tbody tr"));
          if (rows.size() != 3) {
            return false;
          }
          for (int partition = 1; partition <= 3; partition++) {
            String leader = "node " + cluster.leaderOf(partition).orElse(-1);
            List<WebElement> cells = rows.get(partition - 1).findElements(By.tagName("td"));
            if (!cells.get(1).getText().equals(leader)
                || !cells.get(3).getText().equals("HEALTHY")) {
              return false;
            }
          }
          return true;
        });
    until(
        browser,
        "every broker reachable, every partition led",
        b ->
            text(b, "brokers-count").equals("3 / 3")
                && text(b, "leaders-count").equals("3 / 3")
                && b.findElements(By.cssSelector("#brokers tbody tr")).size() == 3);
    until(
        browser,
        "the throughput chart to draw the load",
        b ->
            !b.findElements(By.cssSelector("#chart-throughput polyline.series-ok")).isEmpty()
                && text(b, "rate-now").matches("[0-9.]+")
                && Double.parseDouble(text(b, "rate-now")) > 0);
    screenshot(browser, "02-overview");
  }

  /**
   * Takes two backups through the console (the first with an id typed, the second with the id it
   * proposes), is refused one with a lower id, cancels and then confirms the first's deletion.
   * Returns the kept backup's id.
   */
  private long backups(ChromeDriver browser, CairnClient client) throws Exception {
    open(browser, "backups");
    until(
        browser,
        "the schedule with its markers",
        b ->
            text(b, "schedule").contains("Next backup")
                && text(b, "schedule").contains("Markers every"));

    // an id above the markers' (slot starts, one a second) for the next 8 s: they are skipped as
    // superseded until then, and the restore points page waits for the next one taken
    long first = System.currentTimeMillis() + 8_000;
    assertThat(takeBackup(browser, Long.toString(first))).isEqualTo(first);
    awaitBackupRow(browser, first, "COMPLETED");
    long second = takeBackup(browser, ""); // the id the console chooses
    assertThat(second).isGreaterThan(first);
    awaitBackupRow(browser, second, "COMPLETED");

    // refused by the gateway: the reason is shown
    WebElement input = browser.findElement(By.id("take-id"));
    input.sendKeys("1");
    browser.findElement(By.id("take-button")).click();
    confirm(browser, "Take backup 1?");
    until(
        browser,
        "the refusal shown",
        b -> text(b, "error-text").contains("POST /actuator/backups: 409"));
    browser.findElement(By.id("error-close")).click();
    // refused in the page: not a backup id
    browser.findElement(By.id("take-id")).sendKeys("abc");
    browser.findElement(By.id("take-button")).click();
    assertThat(dialogOpen(browser, "confirm")).isFalse();
    assertThat(text(browser, "error-text"))
        .isEqualTo("Expected the backup id to be an integer >= 1, but was 'abc'");
    browser.findElement(By.id("error-close")).click();
    browser.findElement(By.id("take-id")).clear();

    // the partitions of a backup, shown on a click
    click(browser, By.cssSelector("tr[data-backup='" + second + "']"));
    until(
        browser,
        "the partitions of backup " + second,
        b -> b.findElements(By.cssSelector("#backups tr.details tbody tr")).size() == 3);
    screenshot(browser, "03-backups");

    // deleting: cancelled changes nothing, confirmed deletes every partition's copy
    click(browser, deleteButton(first));
    until(browser, "the confirmation", b -> dialogOpen(b, "confirm"));
    assertThat(text(browser, "confirm-title")).isEqualTo("Delete backup " + first + "?");
    browser.findElement(By.id("confirm-cancel")).click();
    assertThat(client.listAllBackups().stream().map(BackupInfo::backupId)).contains(first);
    click(browser, deleteButton(first));
    confirm(browser, "Delete backup " + first + "?");
    until(
        browser,
        "backup " + first + " gone from the page",
        b -> b.findElements(By.cssSelector("tr[data-backup='" + first + "']")).isEmpty());
    assertThat(text(browser, "notice-text")).isEqualTo("Backup " + first + " deleted.");
    assertThat(client.listAllBackups().stream().map(BackupInfo::backupId))
        .doesNotContain(first)
        .contains(second);
    return second;
  }

  private void restorePoints(ChromeDriver browser, CairnClient client) throws Exception {
    open(browser, "restore");
    until(
        browser,
        "the recovery point and the timeline with the archive's restore points",
        b ->
            !text(b, "rpo").equals("–")
                && !b.findElements(By.cssSelector("#timeline circle.point-COMPLETED")).isEmpty()
                && !b.findElements(By.cssSelector("#timeline circle.point-archive")).isEmpty()
                && !b.findElements(By.cssSelector("#restore-points tbody tr")).isEmpty());
    assertThat(text(browser, "rpo")).matches("\\d+ (ms|s|min \\d+ s)");
    // the newest restorable point the page names is one the archive lists as restorable
    String newest = text(browser, "newest-point");
    assertThat(client.restorePoints(0))
        .filteredOn(RestorePoint::restorable)
        .extracting(p -> Long.toString(p.checkpointId()))
        .contains(newest);
    // no restore can be asked of a running cluster: the list offers none
    assertThat(browser.findElements(By.cssSelector("#restore-points button[data-use]"))).isEmpty();
    assertThat(text(browser, "restore-state")).contains("NOT IN RESTORE MODE");
    assertThat(browser.findElement(By.id("restore-form")).isDisplayed()).isFalse();
    screenshot(browser, "04-restore-points");
  }

  /** Follows the navigation link to {@code page} and waits until the page shows its data. */
  private static void open(ChromeDriver browser, String page) {
    browser.findElement(By.cssSelector("nav a[data-page=" + page + "]")).click();
    until(browser, "the " + page + " page", b -> page.equals(loaded(b)));
  }

  /**
   * Leaves the page before its cluster stops (it would poll on, and the browser log the refused
   * connections), forgetting its credentials: the next cluster's page must ask again.
   */
  private static void leave(ChromeDriver browser) {
    browser.executeScript("sessionStorage.clear()");
    browser.get("about:blank");
  }

  /** Restores a backup by its id from the console of a cluster in restore mode. */
  private void restore(ChromeDriver browser, long expectedBackup) throws Exception {
    browser.get(browser.getCurrentUrl().replaceAll("#.*$", "") + "#restore");
    until(
        browser,
        "the restore form of a waiting cluster",
        b -> b.findElement(By.id("restore-form")).isDisplayed());
    assertThat(text(browser, "restore-state")).contains("WAITING");
    // the archive's points are listed in restore mode too, and Use fills the form with one
    until(
        browser,
        "restore points to choose from",
        b -> !b.findElements(By.cssSelector("#restore-points button[data-use]")).isEmpty());
    WebElement use = browser.findElement(By.cssSelector("#restore-points button[data-use]"));
    String point = use.getAttribute("data-use");
    use.click();
    assertThat(new Select(browser.findElement(By.id("restore-target"))).getFirstSelectedOption())
        .extracting(option -> option.getAttribute("value"))
        .isEqualTo("checkpointId");
    assertThat(browser.findElement(By.id("restore-value")).getAttribute("value")).isEqualTo(point);
    // this test restores the backup itself
    new Select(browser.findElement(By.id("restore-target"))).selectByValue("backupId");
    browser.findElement(By.id("restore-value")).clear();
    browser.findElement(By.id("restore-value")).sendKeys(Long.toString(expectedBackup));
    browser.findElement(By.id("restore-button")).click();
    confirm(browser, "Restore this cluster?");
    until(browser, "the restore started", b -> b.findElement(By.id("notice")).isDisplayed());
    assertThat(text(browser, "notice-text"))
        .isEqualTo("Restore started: backup " + expectedBackup + ".");
    until(
        browser,
        "every replica VERIFIED",
        b -> {
          // each of the 3 brokers restores its replica of each of the 3 partitions
          List<WebElement> rows = b.findElements(By.cssSelector("#restore-partitions tbody tr"));
          return rows.size() == 9
              && rows.stream().allMatch(r -> r.getText().contains("VERIFIED"))
              && text(b, "restore-state").contains("COMPLETED");
        });
    assertThat(text(browser, "restore-state")).contains("COMPLETED — backup " + expectedBackup);
    screenshot(browser, "06-restore-completed");
  }

  /** Takes a backup through the form and returns its id, as the console's notice names it. */
  private static long takeBackup(ChromeDriver browser, String id) {
    WebElement input = browser.findElement(By.id("take-id"));
    input.clear();
    input.sendKeys(id);
    browser.findElement(By.id("take-button")).click();
    confirm(browser, id.isEmpty() ? "Take a backup with the next id?" : "Take backup " + id + "?");
    until(browser, "the backup taken", b -> b.findElement(By.id("notice")).isDisplayed());
    Matcher taken =
        Pattern.compile("Backup (\\d+) taken on every partition")
            .matcher(text(browser, "notice-text"));
    assertThat(taken.find()).as(text(browser, "notice-text")).isTrue();
    browser.findElement(By.id("notice-close")).click();
    return Long.parseLong(taken.group(1));
  }

  private static void confirm(ChromeDriver browser, String title) {
    until(browser, "the confirmation", b -> dialogOpen(b, "confirm"));
    assertThat(text(browser, "confirm-title")).isEqualTo(title);
    browser.findElement(By.id("confirm-ok")).click();
    until(browser, "the confirmation closed", b -> !dialogOpen(b, "confirm"));
  }

  private static void awaitBackupRow(ChromeDriver browser, long id, String state) {
    until(
        browser,
        "backup " + id + " " + state,
        b -> {
          List<WebElement> rows = b.findElements(By.cssSelector("tr[data-backup='" + id + "']"));
          return !rows.isEmpty()
              && rows.get(0).findElements(By.tagName("td")).get(1).getText().startsWith(state);
        });
  }

  private static By deleteButton(long id) {
    return By.cssSelector("button[data-delete='" + id + "']");
  }

  /** Clicks an element of a table, which the page may have drawn anew since it was found. */
  private static void click(ChromeDriver browser, By element) {
    until(
        browser,
        "a click on " + element,
        b -> {
          b.findElement(element).click();
          return true;
        });
  }

  /** No script error, CSP refusal or failed file: only the API's expected error answers. */
  private static void assertNoScriptErrors(ChromeDriver browser) {
    List<String> severe =
        browser.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
            .map(LogEntry::getMessage)
            // a fetch answered 401, 409 or 503 is logged so; the page shows those itself
            .filter(message -> !message.contains("/actuator/"))
            .toList();
    assertThat(severe).as("errors in the browser's console").isEmpty();
  }

  private static ChromeDriver browser() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox", // runs as root in CI
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--ignore-certificate-errors", // the cluster's CA is its own
        "--window-size=1400,1100");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }

  private static URI base(EmbeddedCluster cluster) {
    return URI.create("https://127.0.0.1:" + cluster.gateway().httpAddress().getPort());
  }

  private static void until(
      ChromeDriver browser, String what, java.util.function.Function<WebDriver, Boolean> done) {
    new WebDriverWait(browser, TIMEOUT, Duration.ofMillis(200))
        .withMessage(() -> what + "; the page says: " + pageText(browser))
        // the page draws its tables anew every 2 s: an element found may be gone a moment later
        .ignoring(StaleElementReferenceException.class)
        .until(done::apply);
  }

  private static String pageText(ChromeDriver browser) {
    try {
      return browser.findElement(By.tagName("body")).getText();
    } catch (RuntimeException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static boolean dialogOpen(WebDriver browser, String id) {
    return Boolean.TRUE.equals(
        ((JavascriptExecutor) browser)
            .executeScript("return document.getElementById(arguments[0]).open", id));
  }

  private static String loaded(WebDriver browser) {
    return (String)
        ((JavascriptExecutor) browser).executeScript("return document.body.dataset.loaded || ''");
  }

  private static String text(WebDriver browser, String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private static void screenshot(ChromeDriver browser, String name) throws Exception {
    File file = browser.getScreenshotAs(OutputType.FILE);
    Files.copy(
        file.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Three brokers with TLS and API keys; the source archives its log and writes a marker every
   * second (its hourly schedule and retention show in the console); the restore target starts empty
   * in restore mode.
   */
  private static EmbeddedCluster cluster(
      Path dataDirectory, Path store, SecuritySpec security, boolean restoreMode) {
    EmbeddedClusterBuilder builder =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(3)
            .security(security)
            .backupStore(BackupStoreSpec.filesystem(store))
            .dataDirectory(dataDirectory)
            .brokerSetting("data.restoreMode", Boolean.toString(restoreMode))
            .brokerSetting("processing.creditRetryInterval", "100ms")
            .brokerSetting("processing.creditRetryIntervalMax", "200ms")
            .gatewayRequestTimeout(Duration.ofSeconds(5));
    if (!restoreMode) {
      builder
          .brokerSetting("backup.archive.enabled", "true")
          .brokerSetting("backup.archive.interval", "200ms")
          .brokerSetting("backup.schedule.interval", "1h")
          .brokerSetting("backup.schedule.markerInterval", "1s")
          .brokerSetting("backup.retention.maxCount", "10");
    }
    return builder.build();
  }
}
