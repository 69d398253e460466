import hexside.vassal.LosTable;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The test harness of Hexside's VASSAL LOS extension, headless: reads the LOS table out of a module (.vmod) through
 * the extension's own LosTable, then answers one line of stdin at a time ("FROM<TAB>LEVEL<TAB>TO<TAB>LEVEL", a
 * level "-" for the hex's default) with the answer as JSON (LosTable.Answer.json), or {"error": ..}.
 * A first line "describe<TAB>FROM<TAB>TO" prints what the thread says instead.
 */
public final class LosCheck {
  public static void main(String[] args) throws Exception {
    final LosTable table;
    try (ZipFile module = new ZipFile(args[0])) {
      final ZipEntry entry = module.getEntry(LosTable.FILE);
      if (entry == null) {
        throw new IllegalStateException("the module has no " + LosTable.FILE);
      }
      try (InputStream in = module.getInputStream(entry)) {
        table = LosTable.read(in);
      }
    }
    final PrintStream out = new PrintStream(System.out, false, "UTF-8");
    out.println("{\"status\":" + table.status() + ",\"game\":\"" + table.game() + "\"}");
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      final String[] f = line.split("\t", -1);
      try {
        if (f[0].equals("describe")) {
          out.println(String.join("\n", table.describe(f[1], f[2])));
          out.println("--");
          continue;
        }
        final Integer fromLevel = f[1].equals("-") ? null : Integer.valueOf(f[1]);
        final Integer toLevel = f[3].equals("-") ? null : Integer.valueOf(f[3]);
        out.println(table.answer(f[0], fromLevel, f[2], toLevel).json());
      }
      catch (RuntimeException e) {
        out.println("{\"error\":\"" + e.getMessage().replace("\"", "'") + "\"}");
      }
    }
    out.flush();
  }
}
