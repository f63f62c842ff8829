// The selenium-server package ships no types: it exports the path of its standalone jar.
declare module 'selenium-server' {
  const server: { path: string };
  export default server;
}
