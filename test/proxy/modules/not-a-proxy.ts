// A module whose default export is not what defineProxy returns.
export default { fromClient: {} };
