// Loaded before a program (node --import scripts/lib/usage_preload.mjs PROGRAM …): when the
// process exits, writes its resource usage as JSON to the file RL_USAGE_FILE names — maxRSS in
// bytes and the CPU seconds of every thread — for scripts/bench to read (a spawned child's usage
// is not otherwise known to Node).
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.RL_USAGE_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  writeFileSync(
    file,
    JSON.stringify({
      max_rss_bytes: u.maxRSS * 1024,
      user_seconds: u.userCPUTime / 1e6,
      system_seconds: u.systemCPUTime / 1e6,
    }),
  );
});
