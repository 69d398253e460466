// Opens a module with VASSAL's own classes (run as a single-file program against Vengine.jar) and prints what
// VASSAL built from it, one tab-separated record a line, for tests/engine/exports/test_vassal_engine.py:
//   module NAME VERSION | side NAME | prototype NAME TRAIT... | slot NAME TRAIT... | setup NAME FILE
//   placed SETUP PIECE-NAME TRAIT...   (each AddPiece of the setup's saved game, decoded by GameState)
//   trait TYPE STATE                   (after a slot or placed line: its traits, outermost first)
import VASSAL.build.GameModule;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.module.PrototypeDefinition;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.AddPiece;
import VASSAL.command.Command;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;
import VASSAL.launch.BasicModule;
import VASSAL.tools.DataArchive;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class ReadModule {
  static PrintStream out;

  static String clean(String s) {
    return s == null ? "" : s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  static void traits(GamePiece p) {
    while (p instanceof Decorator) {
      final Decorator d = (Decorator) p;
      out.println("trait\t" + clean(d.myGetType()) + "\t" + clean(d.myGetState()));
      p = d.getInner();
    }
    out.println("trait\t" + clean(p.getType()) + "\t" + clean(p.getState()));
  }

  static void commands(String setup, Command c) {
    if (c instanceof AddPiece) {
      final GamePiece p = ((AddPiece) c).getTarget();
      if (p instanceof Stack) {
        out.println("stack\t" + clean(setup) + "\t" + clean(((AddPiece) c).getState()));
      }
      else {
        out.println("placed\t" + clean(setup) + "\t" + clean(p.getName()) + "\t" + clean(((AddPiece) c).getState()));
        traits(p);
      }
    }
    for (final Command sub : c.getSubCommands()) commands(setup, sub);
  }

  public static void main(String[] args) throws Exception {
    try {
      read(args[0]);
    }
    catch (Throwable e) {
      e.printStackTrace();
      System.exit(2);
    }
    System.exit(0);
  }

  static void read(String path) throws Exception {
    out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    // the Player's menu manager (private in Player): GameModule's window asks for one
    final java.lang.reflect.Constructor<?> menus =
      Class.forName("VASSAL.launch.Player$PlayerMenuManager").getDeclaredConstructor();
    menus.setAccessible(true);
    menus.newInstance();
    GameModule.init(new BasicModule(new DataArchive(path)));
    final GameModule m = GameModule.getGameModule();
    out.println("module\t" + clean(m.getGameName()) + "\t" + clean(m.getGameVersion()));
    for (final PlayerRoster r : m.getComponentsOf(PlayerRoster.class)) {
      for (final String side : r.getSides()) out.println("side\t" + clean(side));
    }
    for (final PrototypeDefinition d : m.getAllDescendantComponentsOf(PrototypeDefinition.class)) {
      out.println("prototype\t" + clean(d.getConfigureName()));
      traits(d.getPiece());
    }
    for (final PieceSlot s : m.getAllDescendantComponentsOf(PieceSlot.class)) {
      out.println("slot\t" + clean(s.getConfigureName()));
      traits(s.getPiece());
    }
    for (final PredefinedSetup s : m.getAllDescendantComponentsOf(PredefinedSetup.class)) {
      out.println("setup\t" + clean(s.getConfigureName()) + "\t" + clean(s.getFileName()));
      commands(s.getConfigureName(), m.getGameState().decodeSavedGame(m.getDataArchive().getInputStream(s.getFileName())));
    }
    out.println("end");
  }
}
