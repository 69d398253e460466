package hexside.vassal;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.zip.InflaterInputStream;

/**
 * Hexside's LOS table of one map, as the exporter writes it (engine/exports/vassal_los.py): every pair of places a
 * unit may stand (a hex at one of its levels) with the answer, and, up to the table's bound, its reasons. No GUI
 * here, so that it is tested headless; {@link HexsideLosThread} draws what it says.
 */
public final class LosTable {
  public static final String FILE = "hexside-los.bin";
  public static final int REASONS = 0;
  public static final int ANSWERS_ONLY = 1;
  public static final int NONE = 2;
  private static final String[] RESULTS = {"clear", "hindered", "blocked"};

  private final int status;
  private final String message;
  private final String game;
  private final String[] labels;
  private final HashMap<String, Integer> byLabel = new HashMap<>();
  private short[][] levels;
  private int[] defaults;
  private int[] firstPlace;
  private int places;
  private int[] answerResult;
  private int[] answerHindrances;
  private boolean[] answerBlind;
  private String[] answerTerm;
  private Index answers;
  private String[] texts;
  private int[][] reasons;
  private int[][] setReasons;
  private int[][] setAssumptions;
  private Index sets;

  /** An array of unsigned indices of one width (1, 2 or 4 bytes). */
  private static final class Index {
    final int width;
    final byte[] data;

    Index(DataInputStream in, long count) throws IOException {
      width = in.readUnsignedByte();
      if (width != 1 && width != 2 && width != 4) {
        throw new IOException("bad index width " + width);
      }
      data = new byte[Math.toIntExact(count * width)];
      in.readFully(data);
    }

    int get(long k) {
      final int at = Math.toIntExact(k * width);
      int v = 0;
      for (int i = 0; i < width; i++) {
        v = (v << 8) | (data[at + i] & 0xff);
      }
      return v;
    }
  }

  private LosTable(DataInputStream in) throws IOException {
    final byte[] magic = new byte[5];
    in.readFully(magic);
    if (!"HXLOS".equals(new String(magic, StandardCharsets.US_ASCII))) {
      throw new IOException("not a Hexside LOS table");
    }
    final int version = in.readUnsignedByte();
    if (version != 1) {
      throw new IOException("a Hexside LOS table of version " + version + "; this extension reads version 1");
    }
    status = in.readUnsignedByte();
    message = str(in);
    game = str(in);
    final int n = in.readInt();
    labels = new String[n];
    for (int i = 0; i < n; i++) {
      labels[i] = str(in);
      byLabel.put(labels[i], i);
    }
    if (status == NONE) {
      return;
    }
    levels = new short[n][];
    defaults = new int[n];
    firstPlace = new int[n];
    for (int i = 0; i < n; i++) {
      final int k = in.readUnsignedByte();
      defaults[i] = in.readUnsignedByte();
      levels[i] = new short[k];
      for (int j = 0; j < k; j++) {
        levels[i][j] = in.readShort();
      }
      firstPlace[i] = places;
      places += k;
    }
    final int a = in.readInt();
    answerResult = new int[a];
    answerHindrances = new int[a];
    answerBlind = new boolean[a];
    answerTerm = new String[a];
    for (int i = 0; i < a; i++) {
      answerResult[i] = in.readUnsignedByte();
      answerHindrances[i] = in.readUnsignedShort();
      answerBlind[i] = in.readUnsignedByte() != 0;
      answerTerm[i] = str(in);
    }
    answers = new Index(in, (long) places * (places + 1) / 2);
    if (status != REASONS) {
      return;
    }
    texts = new String[in.readInt()];
    for (int i = 0; i < texts.length; i++) {
      texts[i] = str(in);
    }
    reasons = new int[in.readInt()][6];
    for (final int[] r : reasons) {
      for (int j = 0; j < 6; j++) {
        r[j] = in.readInt();
      }
    }
    final int k = in.readInt();
    setReasons = new int[k][];
    setAssumptions = new int[k][];
    for (int i = 0; i < k; i++) {
      setReasons[i] = ints(in);
      setAssumptions[i] = ints(in);
    }
    sets = new Index(in, (long) places * places);
  }

  private static String str(DataInputStream in) throws IOException {
    final byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static int[] ints(DataInputStream in) throws IOException {
    final int[] out = new int[in.readUnsignedShort()];
    for (int i = 0; i < out.length; i++) {
      out[i] = in.readInt();
    }
    return out;
  }

  /** Reads a table from its deflated bytes (the module's {@link #FILE}). */
  public static LosTable read(InputStream raw) throws IOException {
    return new LosTable(new DataInputStream(new InflaterInputStream(raw)));
  }

  public int status() {
    return status;
  }

  /** What the table leaves out, in a player's words ("" when it holds every pair with its reasons). */
  public String message() {
    return message;
  }

  public String game() {
    return game;
  }

  /** The hex's index, or -1 when the map has no hex of that label. */
  public int hex(String label) {
    final Integer i = label == null ? null : byLabel.get(label);
    return i == null ? -1 : i;
  }

  /** The levels a unit may stand at in the hex, lowest first. */
  public int[] levels(int hex) {
    final int[] out = new int[levels[hex].length];
    for (int i = 0; i < out.length; i++) {
      out[i] = levels[hex][i];
    }
    return out;
  }

  /** The level Hexside takes for a unit in the hex when none is given (as manage.py los does). */
  public int defaultLevel(int hex) {
    return levels[hex][defaults[hex]];
  }

  private int place(int hex, int level) {
    for (int j = 0; j < levels[hex].length; j++) {
      if (levels[hex][j] == level) {
        return firstPlace[hex] + j;
      }
    }
    final StringBuilder known = new StringBuilder();
    for (final int l : levels(hex)) {
      known.append(known.length() == 0 ? "" : ", ").append(l);
    }
    throw new IllegalArgumentException("a unit cannot stand at level " + level + " in " + labels[hex]
        + " (its levels: " + known + ")");
  }

  /** The answer from one place to another; a null level is the hex's default. */
  public Answer answer(String from, Integer fromLevel, String to, Integer toLevel) {
    if (status == NONE) {
      throw new IllegalStateException(message);
    }
    final int a = hex(from);
    final int b = hex(to);
    if (a < 0 || b < 0) {
      throw new IllegalArgumentException((a < 0 ? from : to) + " is not a hex of this map");
    }
    final int la = fromLevel == null ? defaultLevel(a) : fromLevel;
    final int lb = toLevel == null ? defaultLevel(b) : toLevel;
    final int p = place(a, la);
    final int q = place(b, lb);
    final long lo = Math.min(p, q);
    final long hi = Math.max(p, q);
    final int k = answers.get(lo * places - lo * (lo - 1) / 2 + (hi - lo));
    List<Reason> rs = null;
    List<String> as = null;
    if (status == REASONS) {
      final int set = sets.get((long) p * places + q);
      rs = new ArrayList<>();
      for (final int r : setReasons[set]) {
        rs.add(new Reason(reasons[r]));
      }
      as = new ArrayList<>();
      for (final int t : setAssumptions[set]) {
        as.add(texts[t]);
      }
      rs = Collections.unmodifiableList(rs);
      as = Collections.unmodifiableList(as);
    }
    return new Answer(labels[a], la, labels[b], lb, RESULTS[answerResult[k]], answerHindrances[k],
        answerBlind[k], answerTerm[k], rs, as);
  }

  /**
   * What the LOS thread says of a line from one hex to another: the answer at the hexes' default levels, then
   * at each other pair of levels a unit may stand at. Hexes are VASSAL's location names, i.e. Hexside's labels.
   */
  public List<String> describe(String from, String to) {
    final List<String> out = new ArrayList<>();
    if (status == NONE) {
      out.add("Hexside LOS: " + message);
      return out;
    }
    final int a = hex(from);
    final int b = hex(to);
    if (a < 0 || b < 0) {
      out.add("Hexside LOS: " + (a < 0 ? from : to) + " is not a hex of this map");
      return out;
    }
    final Answer first = answer(from, null, to, null);
    out.add(first.fromHex + " -> " + first.toHex + ": " + first.summary());
    for (final int la : levels(a)) {
      for (final int lb : levels(b)) {
        if (la != first.fromLevel || lb != first.toLevel) {
          final Answer other = answer(from, la, to, lb);
          out.add("  at levels " + la + " -> " + lb + ": " + other.summary());
        }
      }
    }
    if (status == ANSWERS_ONLY) {
      out.add("  (" + message + ")");
    }
    return out;
  }

  private String textAt(int i) {
    return i < 0 ? null : texts[i];
  }

  /** One hex or hexside that changed the answer, with the rule that applied. */
  public final class Reason {
    public final String hex;
    public final String hexside;
    public final String terrain;
    public final String effect;
    public final String rule;
    /** Where it lies in words: "F4", "between F5 and F6". */
    public final String where;

    Reason(int[] f) {
      hex = textAt(f[0]);
      hexside = textAt(f[1]);
      terrain = textAt(f[2]);
      effect = textAt(f[3]);
      rule = textAt(f[4]);
      where = textAt(f[5]);
    }

    /** "hedge between F5 and F6 (blocking, ATS 6.4)". */
    public String text() {
      return terrain + (where == null || where.isEmpty() ? "" : " " + where) + " (" + effect
          + (rule == null || rule.isEmpty() ? "" : ", " + rule) + ")";
    }
  }

  /** One LOS answer, as Hexside's engine gives it. */
  public static final class Answer {
    public final String fromHex;
    public final int fromLevel;
    public final String toHex;
    public final int toLevel;
    public final String result;
    public final int hindrances;
    public final boolean blind;
    public final String term;
    /** The reasons and assumptions, or null where the table holds none (past its reasons' bound). */
    public final List<Reason> reasons;
    public final List<String> assumptions;

    Answer(String fromHex, int fromLevel, String toHex, int toLevel, String result, int hindrances,
           boolean blind, String term, List<Reason> reasons, List<String> assumptions) {
      this.fromHex = fromHex;
      this.fromLevel = fromLevel;
      this.toHex = toHex;
      this.toLevel = toLevel;
      this.result = result;
      this.hindrances = hindrances;
      this.blind = blind;
      this.term = term;
      this.reasons = reasons;
      this.assumptions = assumptions;
    }

    /** "blocked: hedge between F5 and F6 (blocking, ATS 6.4)", "clear, 2 hindrances: orchard F4 (...), ..". */
    public String summary() {
      final StringBuilder sb = new StringBuilder(result);
      if (hindrances > 0) {
        sb.append(", ").append(hindrances).append(hindrances == 1 ? " hindrance" : " hindrances");
      }
      if (blind) {
        sb.append(", blind hex");
      }
      if (!term.equalsIgnoreCase(result)) {
        sb.append(" [").append(term).append(']');
      }
      if (reasons != null && !reasons.isEmpty()) {
        sb.append(": ");
        for (int i = 0; i < reasons.size(); i++) {
          sb.append(i == 0 ? "" : "; ").append(reasons.get(i).text());
        }
      }
      return sb.toString();
    }

    /** The answer as JSON, with the fields and names of Hexside's own (engine/los/answer.py). */
    public String json() {
      final StringBuilder sb = new StringBuilder("{");
      sb.append("\"from\":").append(quote(fromHex)).append(",\"to\":").append(quote(toHex));
      sb.append(",\"from_level\":").append(fromLevel).append(",\"to_level\":").append(toLevel);
      sb.append(",\"result\":").append(quote(result)).append(",\"hindrances\":").append(hindrances);
      sb.append(",\"blind\":").append(blind).append(",\"term\":").append(quote(term));
      if (reasons != null) {
        sb.append(",\"reasons\":[");
        for (int i = 0; i < reasons.size(); i++) {
          final Reason r = reasons.get(i);
          sb.append(i == 0 ? "" : ",").append("{\"hex\":").append(quote(r.hex)).append(",\"hexside\":")
              .append(quote(r.hexside)).append(",\"terrain\":").append(quote(r.terrain)).append(",\"effect\":")
              .append(quote(r.effect)).append(",\"rule\":").append(quote(r.rule)).append('}');
        }
        sb.append("],\"assumptions\":[");
        for (int i = 0; i < assumptions.size(); i++) {
          sb.append(i == 0 ? "" : ",").append(quote(assumptions.get(i)));
        }
        sb.append(']');
      }
      sb.append(",\"summary\":").append(quote(summary())).append('}');
      return sb.toString();
    }
  }

  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    final StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      }
      else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      }
      else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
