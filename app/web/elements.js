// The page's elements by id: the one lookup every module of the page uses.
export const $ = (id) => document.getElementById(id);
