// `statewire` CLI dispatcher (placeholder).
console.error('usage: statewire <check|format|run|serve> …');
process.exit(2);
