// `npm run dev`: the API with reload, and the admin and portal Vite dev servers proxying to it.
import { spawn } from 'node:child_process';

const procs = [
  spawn('npm', ['run', 'dev', '-w', 'api'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'admin'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'portal', '--', '--port', '5174'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
