package io.tern.benchmark.soak;

import io.tern.benchmark.common.CommandLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code soak-report DIR}: the report and verdicts of a soak, written again from its data, with the
 * thresholds it ran with unless given here. Exit code as the soak's: 0 if every verdict passes.
 */
@Command(
    name = "soak-report",
    usageHelpAutoWidth = true,
    description =
        "Writes DIR/report.html, DIR/report.md and DIR/verdicts.json again from DIR/intervals.jsonl"
            + " (a soak's data, running or finished), judged with the thresholds the soak ran"
            + " with, overridden by any given here. Exit code 0 when every verdict passes, 1 when"
            + " one fails.")
public final class SoakReportCommand {
  @Parameters(index = "0", paramLabel = "DIR", description = "the soak's directory")
  Path dir;

  @Option(
      names = "--baseline",
      paramLabel = "DIR",
      description = "an earlier run's directory to compare with")
  Path baseline;

  @Mixin ThresholdOptions thresholds;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  public static int run(String[] args) throws Exception {
    SoakReportCommand options = CommandLines.parse(new SoakReportCommand(), args, o -> o);
    if (options == null) {
      return 0;
    }
    if (!Files.exists(options.dir.resolve(SoakLog.FILE))) {
      throw new CommandLines.UsageException(
          "soak-report: no " + SoakLog.FILE + " in " + options.dir + ": not a soak's directory");
    }
    if (options.baseline != null && !Files.exists(options.baseline.resolve(SoakLog.FILE))) {
      throw new CommandLines.UsageException(
          "--baseline: no " + SoakLog.FILE + " in " + options.baseline);
    }
    // The run's own thresholds first, then this command line's: the last value of an option wins.
    List<String> all = new ArrayList<>(Arrays.asList(SoakReport.thresholdArgs(options.dir)));
    all.addAll(Arrays.asList(args));
    SoakReportCommand effective =
        CommandLines.parse(new SoakReportCommand(), all.toArray(String[]::new), o -> o);
    SoakSeries series = SoakSeries.of(SoakLog.read(options.dir));
    List<Verdict> verdicts =
        SoakReport.write(options.dir, series, effective.thresholds.thresholds(), options.baseline);
    verdicts.forEach(verdict -> System.out.println(verdict.line()));
    System.out.println("report: " + options.dir.resolve(SoakReport.HTML).toAbsolutePath());
    return verdicts.stream().allMatch(Verdict::passed) ? 0 : 1;
  }
}
