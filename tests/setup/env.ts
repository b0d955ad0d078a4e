// Tests run in Singapore's business zone regardless of the machine's, and quietly.
process.env.TZ = 'UTC';
