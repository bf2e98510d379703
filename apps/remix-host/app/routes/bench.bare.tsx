/** `/bench/bare`: a tiny page through the same root and document render, the baseline of `npm run bench`. */
export default function Bare() {
  return <p>ok</p>;
}
