// Makes sure Debian's chromium is present for the Playwright specs. Playwright cannot download its
// own browser on these machines, so as root we install the Debian package; otherwise we say what to do.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);
if (process.getuid?.() !== 0) {
  console.error(
    `chromium not found at ${path}. Install it with: sudo apt-get update && sudo apt-get install -y chromium`,
  );
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests…');
try {
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
} catch {
  console.error('apt-get install chromium failed; install the Debian package `chromium` by hand.');
  process.exit(1);
}
if (!existsSync(path)) {
  console.error(`chromium was installed but ${path} is missing`);
  process.exit(1);
}
