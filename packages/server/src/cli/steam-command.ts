import { Command } from "commander";
import { ConfigError, type Config } from "../config.ts";
import { runningServer } from "../server-file.ts";
import { loadCertificateAuthority } from "../steam-face/certificate-authority.ts";
import { steamEnv, steamEnvText } from "../steam-face/steam-env.ts";

const ENV_EXAMPLES = `
Examples:
  $ eval "$(skinmarket steam env)"        trust the face's CA and reach Steam's names through it
  $ skinmarket steam env --json           the same as one JSON object

The port is --steam-face-port (STEAM_FACE_PORT), else the one the running server of --data-dir
serves. The CA is made in DATA_DIR/steam-face on first use, by this command or the server.
Exit 2: no port is known, or bad usage.`;

/** `skinmarket steam`: the sandbox's Steam face, from the side of a bot that uses it. */
export function steamCommand(
  withConfig: (command: Command) => Command,
  configOf: (command: Command) => Config,
): Command {
  const steam = new Command("steam").description("the sandbox's Steam face: how a bot reaches it");
  steam.addCommand(
    withConfig(
      new Command("env")
        .description("print the environment a bot needs to reach the Steam face (CA, proxy, hosts line)")
        .option("--json", "print one JSON object")
        .addHelpText("after", ENV_EXAMPLES),
    ).action(async function (this: Command) {
      const config = configOf(this);
      const port = config.steamFacePort || (await runningServer(config.dataDir))?.steam_face_port;
      if (!port)
        throw new ConfigError(
          "STEAM_FACE_PORT",
          `not given, and no running server of ${config.dataDir} serves the Steam face: give --steam-face-port, or start the server with STEAM_FACE_PORT`,
        );
      const authority = await loadCertificateAuthority(config.dataDir);
      const env = steamEnv({
        address: config.host,
        port,
        caFile: authority.certFile,
        bundleFile: authority.bundleFile,
      });
      process.stdout.write(
        this.opts<{ json?: boolean }>().json ? `${JSON.stringify(env)}\n` : steamEnvText(env),
      );
    }),
  );
  return steam;
}
